/** Campaign wizard (spec section 2): type, name, contact list, template, configurations, check and send. */
export { default } from './campaigns/CampaignWizard';
