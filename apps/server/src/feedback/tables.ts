import type { Generated } from 'kysely';

export interface FeedbackTable {
  id: Generated<number>;
  account_id: number | null;
  name: string;
  email: string;
  description: string;
  created_at: number;
}

export interface FeedbackFilesTable {
  id: Generated<number>;
  feedback_id: number;
  account_id: number | null;
  file_name: string;
  mime_type: string;
  size_bytes: number;
  /** Path relative to DATA_DIR. */
  stored_path: string;
}

export interface FeedbackTables {
  feedback: FeedbackTable;
  feedback_files: FeedbackFilesTable;
}
