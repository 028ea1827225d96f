import type { Generated } from 'kysely';

export interface ContactListsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  /** ISO 3166 alpha-2 code that national phone numbers are read in; null reads international numbers only. */
  default_country: Generated<string | null>;
  /** JSON array of the attribute names the list's contacts carry (export columns, template variables). */
  attribute_names: Generated<string>;
  /** Counts kept current by every write, so a list of millions answers its totals without counting. */
  total_count: Generated<number>;
  email_count: Generated<number>;
  phone_count: Generated<number>;
  unsubscribed_count: Generated<number>;
  bounced_count: Generated<number>;
  blocked_count: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface ContactsTable {
  id: Generated<number>;
  account_id: number;
  list_id: number;
  /** Lower-cased; unique within the list. */
  email: string | null;
  /** E.164; unique within the list. */
  phone: string | null;
  /** ISO 3166 alpha-2 code of the phone number. */
  country: Generated<string | null>;
  name: Generated<string | null>;
  /** The name folded for case-insensitive search (foldForSearch). */
  name_folded: Generated<string | null>;
  /** ISO 639-1 code. */
  language: Generated<string | null>;
  /** IANA zone name. */
  time_zone: Generated<string | null>;
  /** active, unsubscribed, bounced or blocked. */
  status: Generated<string>;
  /** JSON object of text values, available to templates by name. */
  attributes: Generated<string>;
  created_at: number;
  updated_at: number;
}

/**
 * One uploaded file and what became of it. While an import runs, its valid rows wait in a staging table of
 * its own (import_rows_<id>, created and dropped by the runner: dropping a table is instant where deleting
 * a million rows is not) and reach `contacts` in one final transaction.
 */
export interface ImportsTable {
  id: Generated<number>;
  account_id: number;
  list_id: number;
  file_name: string;
  size_bytes: number;
  /** Under DATA_DIR; null once the upload has been removed. */
  file_path: string | null;
  encoding: string;
  /** `,`, `;` or a tab; null for a one-column file. */
  separator: string | null;
  has_header: number;
  /** JSON { header, columnCount, rows, suggestedMapping } shown before the import starts. */
  preview: string;
  /** JSON { "<column index>": target }. */
  mapping: string | null;
  /** add, update or replace. */
  mode: string | null;
  default_country: string | null;
  /** Language of the report's reasons: the one of whoever started the import. */
  language: string;
  /** pending, running, done, failed or cancelled. */
  status: string;
  /** reading or saving while running. */
  phase: string | null;
  cancel_requested: Generated<number>;
  rows_done: Generated<number>;
  /** Estimated from the bytes read so far until the file has been read. */
  rows_total: Generated<number>;
  imported: Generated<number>;
  updated: Generated<number>;
  removed: Generated<number>;
  duplicates: Generated<number>;
  invalid: Generated<number>;
  /** JSON array of the first invalid rows: { line, key, params }. */
  invalid_sample: Generated<string>;
  report_path: string | null;
  /** Message key of what failed the whole file. */
  error: string | null;
  error_params: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  /** Written while the import runs; a running import whose heartbeat stopped was interrupted. */
  heartbeat_at: number | null;
}

export interface ContactTables {
  contact_lists: ContactListsTable;
  contacts: ContactsTable;
  imports: ImportsTable;
}
