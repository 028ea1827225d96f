/** Limits of the statistics screens that both the server and the console apply. */

/** The longest report or log date range, in days (a leap year). */
export const MAX_REPORT_DAYS = 366;

/** The message log counts matches only up to here, so a page never costs a count over millions of rows. */
export const LOG_COUNT_CAP = 10_000;

/** Statuses that reached the recipient: delivery and read rates are built on them. */
export const REACHED_STATUSES = ['delivered', 'unread', 'read'] as const;
