/** Business constants from the console spec, section 9. */
export const REQUEST_TIMEOUT_MS = 5000;
export const SESSION_CHECK_INTERVAL_MS = 20_000;
export const API_NOTIFY_MS = 3000;
export const GENERIC_ERROR_MS = 5000;
export const FEEDBACK_NOTIFY_MS = 2000;
export const DEFAULT_PAGE = 1;
export const DEFAULT_PAGE_SIZE = 10;
export const DEFAULT_REPORT_DAYS = 7;
export const DEFAULT_THEME_COLOR = '#1890ff';
export const MOBILE_BREAKPOINT_PX = 992;
export const SIDEBAR_WIDTH_PX = 210;
export const MAX_FILTER_ITEMS = 4;
export const IMPORT_PREVIEW_ROWS = 10;
export const UNSELECTED_CONFIG_PRIORITY = 99;
export const MAX_BALANCE_CONFIGS = 5;
export const FEEDBACK_MAX_FILES = 5;
export const FEEDBACK_MAX_FILE_BYTES = 5 * 1024 * 1024;
export const TOKEN_HEADER = 'X-Token';
export const TOKEN_COOKIE = 'Admin-Token';
export const LANGUAGES = ['ru', 'en', 'uk'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'ru';
/** Built-in avatars a user can pick; the avatar call names one of these files. */
export const AVATARS = ['avatar-1.svg', 'avatar-2.svg', 'avatar-3.svg', 'avatar-4.svg', 'avatar-5.svg', 'avatar-6.svg'] as const;
export const DEFAULT_AVATAR = AVATARS[0];
