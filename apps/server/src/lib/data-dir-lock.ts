/**
 * Which process owns an SQLite data directory. The owner hands back every lease at start, as a restart after a crash
 * must; a second `herald serve` doing the same took the live one's messages and sent them again. The lock is SQLite's
 * own exclusive file lock on DATA_DIR/herald.lock, which the system drops when its process ends, kill -9 included.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

/** Takes the lock, or answers null when another process holds it; the lock lasts until release or the process ends. */
export function lockDataDir(dataDir: string): { release(): void } | null {
  mkdirSync(dataDir, { recursive: true });
  const file = new Database(path.join(dataDir, 'herald.lock'), { timeout: 0 });
  try {
    // In exclusive locking mode the lock of the first write stays with this connection until it closes.
    file.pragma('locking_mode = exclusive');
    file.exec('create table if not exists holder (pid integer not null)');
    file.transaction(() => {
      file.exec('delete from holder');
      file.prepare('insert into holder (pid) values (?)').run(process.pid);
    })();
    return { release: () => file.close() };
  } catch (error) {
    file.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return null;
    throw error;
  }
}
