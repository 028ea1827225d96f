/** One campaign: settings, counts per status and the delivery chart. */
export { default } from './campaigns/CampaignDetails';
