/** One Kysely instance over SQLite (embedded default) or PostgreSQL (DATABASE_URL). */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import SQLite from 'better-sqlite3';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresAdapter,
  type PostgresPoolClient,
  type QueryResult,
  type RawBuilder,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  sql,
} from 'kysely';
import { SearchPathPostgresDialect } from './postgres-dialect.js';
import type { Database } from './schema.js';
import { WriteGate } from './write-gate.js';

export type Dialect = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  /** The PostgreSQL schema in use when not the default one. */
  schema?: string | undefined;
  /** SQLite: the write lock's gate, which engine threads of this process join (`engineOf`). */
  writeGate?: WriteGate;
  /** PostgreSQL: one connection of the pool, kept until released. */
  holdConnection?(): Promise<HeldConnection>;
  close(): Promise<void>;
}

/** A PostgreSQL connection kept for one piece of work: Kysely over it, and COPY, which Kysely cannot send. */
export interface HeldConnection {
  db: Db;
  /** Runs `copy … from stdin` with `text` (COPY's text format). */
  copyFrom(statement: string, text: string): Promise<void>;
  release(): void;
}

// The PostgreSQL client is loaded only when used, so an embedded install does not carry it.
const require = createRequire(import.meta.url);

export interface OpenOptions {
  databaseUrl?: string | undefined;
  /** SQLite file; ':memory:' for tests. */
  sqliteFile?: string;
  /** PostgreSQL schema to work in (tests use one per file). */
  pgSchema?: string;
  /** SQLite: how long a statement waits for another connection's write lock before it fails with SQLITE_BUSY. */
  busyWaitMs?: number;
  /** SQLite, an engine thread: the API thread's write gate (its `shared` memory), to let waiting API writes go first. */
  engineOf?: SharedArrayBuffer;
}

/** An engine thread's page cache: negative is KiB in SQLite's pragma. */
const ENGINE_CACHE_KIB = -2000;
/**
 * Any other connection's (the API's, materialising campaigns): 4 MB instead of better-sqlite3's 16 held a 1M e-mail
 * campaign's peak RSS 8 MB lower (194 → 186 MB) at the same speed; a 1M-row import ran as fast, and the message log's
 * pages over 10M messages stayed within 1–7 ms (the file's pages stay in the OS cache).
 */
const API_CACHE_KIB = -4000;

export function openDatabase(options: OpenOptions): DatabaseHandle {
  if (options.databaseUrl) {
    const pg = require('pg') as typeof import('pg');
    // int8 and numeric counts come back as strings by default; every bigint we store fits a JS number.
    pg.types.setTypeParser(pg.types.builtins.INT8, Number);
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    // A database restart breaks every connection: an idle one is dropped by the pool, and one checked out between two
    // queries fails its next query (the pool then drops it), instead of an unhandled 'error' event ending the process.
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = new Kysely<Database>({ dialect: new SearchPathPostgresDialect({ pool }) });
    const holdConnection = async (): Promise<HeldConnection> => {
      const client = await pool.connect();
      // Kysely releases its connection after each query or transaction; this one stays held until release().
      const held: PostgresPoolClient = { query: client.query.bind(client) as PostgresPoolClient['query'], release() {} };
      const heldPool = { connect: async () => held, end: async () => {} };
      const { from } = require('pg-copy-streams') as typeof import('pg-copy-streams');
      return {
        db: new Kysely<Database>({ dialect: new SearchPathPostgresDialect({ pool: heldPool }) }),
        copyFrom: (statement, text) => pipeline(Readable.from([text]), client.query(from(statement))),
        release: () => client.release(),
      };
    };
    return { db, dialect: 'postgres', schema: options.pgSchema, holdConnection, close: () => db.destroy() };
  }
  const file = options.sqliteFile ?? ':memory:';
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // better-sqlite3's default page cache is 16 MB a connection. The engine's statements touch a few hot pages of each
  // index and sent as fast with 2 MB (100k SMS, interleaved runs), so an engine thread keeps 14 MB less resident.
  sqlite.pragma(`cache_size = ${options.engineOf ? ENGINE_CACHE_KIB : API_CACHE_KIB}`);
  // Never asleep in SQLite waiting for another connection's write lock: that sleep would hold the whole event loop.
  sqlite.pragma('busy_timeout = 0');
  const writeGate = new WriteGate(options.engineOf);
  const waiting: BusyWaiting = {
    busyWaitMs: options.busyWaitMs ?? BUSY_WAIT_MS,
    gate: writeGate,
    side: options.engineOf ? 'engine' : 'api',
  };
  const db = new Kysely<Database>({ dialect: new WaitingSqliteDialect({ database: withStatementCache(sqlite) }, waiting) });
  return { db, dialect: 'sqlite', writeGate, close: () => db.destroy() };
}

/** Kysely begins every transaction with this statement; it runs as `begin immediate`, taking the write lock. */
const KYSELY_BEGIN = 'begin';

/** How long a statement waits for another connection's write lock in all, and how often it asks again meanwhile. */
const BUSY_WAIT_MS = 5000;
const BUSY_RETRY_MS = 1;

interface BusyWaiting {
  busyWaitMs: number;
  gate: WriteGate;
  /** The API thread's connection counts itself in the gate while it waits; an engine thread's lets it go first. */
  side: 'api' | 'engine';
}

/**
 * A statement refused because another connection (an engine thread) holds the write lock did nothing; it is run
 * again a millisecond later, so the event loop serves other requests while it waits.
 */
function waitingWhenBusy(connection: DatabaseConnection, { busyWaitMs, gate, side }: BusyWaiting): DatabaseConnection {
  return {
    async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      if (side === 'engine' && query.sql === KYSELY_BEGIN) await gate.yieldToApi();
      const deadline = Date.now() + busyWaitMs;
      let counted = false;
      try {
        for (;;) {
          try {
            return await connection.executeQuery<R>(query);
          } catch (error) {
            if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
          }
          if (side === 'api' && !counted) {
            counted = true;
            gate.waiting();
          }
          await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS));
        }
      } finally {
        if (counted) gate.done();
      }
    },
    streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
  };
}

class WaitingSqliteDriver extends SqliteDriver {
  constructor(
    config: SqliteDialectConfig,
    private readonly waiting: BusyWaiting,
  ) {
    super(config);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    return waitingWhenBusy(await super.acquireConnection(), this.waiting);
  }
}

class WaitingSqliteDialect extends SqliteDialect {
  constructor(
    private readonly config: SqliteDialectConfig,
    private readonly waiting: BusyWaiting,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    return new WaitingSqliteDriver(this.config, this.waiting);
  }
}

const STATEMENT_CACHE_SIZE = 100;

/**
 * Kysely prepares every query afresh, and preparing cost as much as running for the sending engine's statements,
 * which repeat thousands of times a second: the most recently used statements are kept and reused.
 */
function withStatementCache(sqlite: SQLite.Database): Pick<SQLite.Database, 'close' | 'prepare'> {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare: (source: string) => {
      let statement = statements.get(source);
      if (statement) statements.delete(source);
      else {
        // Engine threads write through connections of their own: a transaction takes the write lock when it begins, so
        // one that read first cannot fail with SQLITE_BUSY_SNAPSHOT when it comes to write.
        statement = sqlite.prepare(source === KYSELY_BEGIN ? 'begin immediate' : source);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value as string);
      }
      statements.set(source, statement);
      return statement;
    },
  } as Pick<SQLite.Database, 'close' | 'prepare'>;
}

export async function checkDatabase(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

/** True when an insert or update broke a unique constraint, on either database. */
export function isUniqueViolation(error: unknown): boolean {
  const err = error as { code?: string; message?: string };
  return err?.code === '23505' || err?.code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** True on PostgreSQL, for the few statements whose best form differs between the two databases. */
export function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * `column in (ids)` with the ids bound as one parameter (a JSON array on SQLite, an array on PostgreSQL): the statement
 * is the same text for any number of ids, so it is prepared once and reused, and no query node is built per id.
 */
export function inIds(db: Db, column: string, ids: readonly number[]): RawBuilder<boolean> {
  return isPostgres(db)
    ? sql<boolean>`${sql.ref(column)} = any(${ids}::bigint[])`
    : sql<boolean>`${sql.ref(column)} in (select value from json_each(${JSON.stringify(ids)}))`;
}
