/** All SQL of feedback messages and their attached files. */
import type { Db } from '../db/database.js';

export interface NewFeedback {
  accountId: number | null;
  name: string;
  email: string;
  description: string;
}

export async function insertFeedback(db: Db, feedback: NewFeedback, now: number): Promise<number> {
  const row = await db
    .insertInto('feedback')
    .values({
      account_id: feedback.accountId,
      name: feedback.name,
      email: feedback.email,
      description: feedback.description,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export interface NewFeedbackFile {
  feedbackId: number;
  accountId: number | null;
  fileName: string;
  mimeType: string;
  sizeBytes: number;
  storedPath: string;
}

export async function insertFeedbackFile(db: Db, file: NewFeedbackFile): Promise<void> {
  await db
    .insertInto('feedback_files')
    .values({
      feedback_id: file.feedbackId,
      account_id: file.accountId,
      file_name: file.fileName,
      mime_type: file.mimeType,
      size_bytes: file.sizeBytes,
      stored_path: file.storedPath,
    })
    .execute();
}

/** Newest first. */
export function findFeedbackPage(db: Db, limit: number, offset: number) {
  return db.selectFrom('feedback').selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute();
}

export async function countFeedback(db: Db): Promise<number> {
  const row = await db
    .selectFrom('feedback')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function findFilesOfFeedback(db: Db, feedbackIds: number[]) {
  if (feedbackIds.length === 0) return [];
  return db.selectFrom('feedback_files').selectAll().where('feedback_id', 'in', feedbackIds).orderBy('id').execute();
}

export function findFeedbackFile(db: Db, fileId: number) {
  return db.selectFrom('feedback_files').selectAll().where('id', '=', fileId).executeTakeFirst();
}
