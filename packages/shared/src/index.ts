export * from './constants.js';
export * from './errors.js';
export * from './notifications.js';
export * from './roles.js';
export * from './sms.js';
export * from './statistics.js';
export * from './statuses.js';
export * from './validation.js';
