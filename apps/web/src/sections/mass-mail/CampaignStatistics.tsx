/** Campaign log: every message of one campaign with its status. */
export { default } from './campaigns/CampaignLog';
