/** Campaign list: every campaign with its state and live progress (the screen lives in ./campaigns). */
export { default } from './campaigns/CampaignList';
