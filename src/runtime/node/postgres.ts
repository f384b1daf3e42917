import type pg from 'pg';
import { requirePeer } from './requirePeer';

/*
 * The published types below name node-postgres's shapes in the part the kit uses, written out here:
 * a server without `@types/pg` type-checks them. Inside, the values are node-postgres's own.
 */

/** One row as a query answers it: column name to value. */
export type SqlRow = Record<string, any>; // as node-postgres's QueryResultRow: a row's columns are whatever the statement selects

/** What a statement answers (node-postgres's `QueryResult`, the part the kit reads). */
export interface SqlResult<R extends SqlRow = SqlRow> {
  rows: R[];
  /** Rows the statement changed or returned (null for statements that have no count). */
  rowCount: number | null;
}

/** A connection statements run on (node-postgres's `PoolClient` inside `transaction`). */
export interface SqlConnection {
  query<R extends SqlRow = SqlRow>(text: string, values?: unknown[]): Promise<SqlResult<R>>;
}

/** A connection of its own outside the pool, for LISTEN (node-postgres's `Client`). */
export interface ListenConnection {
  connect(): Promise<unknown>;
  query(text: string): Promise<unknown>;
  on(event: 'notification', listener: (message: { channel: string; payload?: string | undefined }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  end(): Promise<unknown>;
}

/** Pool settings (node-postgres's `PoolConfig` without the connection, which comes from the URL). */
export interface PostgresPoolSettings {
  /** Connections at most. @default 10 */
  max?: number;
  idleTimeoutMillis?: number;
  connectionTimeoutMillis?: number;
  /** TLS: `true`, or node's TLS options. */
  ssl?: boolean | Record<string, unknown>;
  /** Start-up options of every connection (`-c name=value …`). */
  options?: string;
  application_name?: string;
  statement_timeout?: number;
  /** Any other node-postgres pool setting. */
  [setting: string]: unknown;
}

/** An open PostgreSQL database: a connection pool whose schema is at this package's version. */
export interface PostgresDatabase {
  /** The schema that holds the tables (the one asked for, or the connection's current schema). */
  readonly schema: string;
  /** The NOTIFY channel of this schema's tables: instances on one schema hear each other, others do not. */
  readonly channel: string;
  /** A new connection outside the pool, on the same database and schema (for LISTEN); the caller ends it. */
  dedicated(): ListenConnection;
  /** One statement on any pooled connection. */
  query<R extends SqlRow = SqlRow>(text: string, values?: unknown[]): Promise<SqlResult<R>>;
  /** Runs `work` inside BEGIN … COMMIT on one connection; an error rolls it back and is thrown again. */
  transaction<T>(work: (client: SqlConnection) => Promise<T>): Promise<T>;
  /** Ends the pool (waits for queries in flight). */
  close(): Promise<void>;
}

export interface PostgresOptions {
  /**
   * The schema that holds ChatSurface's tables, created when missing (lowercase letters,
   * digits and `_`): several deployments, or tests, may share one database.
   * @default the connection's search_path (`public`, usually)
   */
  schema?: string;
  /** Pool settings (size, timeouts, TLS, …); the connection comes from the URL. @default { max: 10 } */
  pool?: PostgresPoolSettings;
  /**
   * Prepare the statements run through `query` once per connection (named
   * statements: PostgreSQL parses and plans each once, not on every call).
   * The kit's statements are a fixed set; past 256 distinct ones the rest
   * run unprepared. Turn it off behind a pooler in transaction mode that
   * does not keep prepared statements (PgBouncer before 1.21). @default true
   */
  prepare?: boolean;
  /** Hears an idle pooled connection's error (the server restarted, the network dropped). @default console.error */
  onError?: (error: Error) => void;
}

/**
 * The schema, one step per version: step i brings a database from version i
 * to i + 1 (version 0 is an empty one). Add a step and the version follows;
 * never change a step that has shipped. Tables mirror the SQLite ones; JSON
 * bodies are `text`, so what comes back is byte for byte what was written.
 */
const MIGRATIONS: readonly string[] = [
  // 1: every store: threads and their events, jobs, idempotent answers, the meter's books, saved skills, sessions.
  `
    CREATE TABLE threads (
      key text PRIMARY KEY,
      user_id text NOT NULL,
      space_id text NOT NULL,
      thread_id text NOT NULL,
      last_seq integer NOT NULL,
      open boolean NOT NULL DEFAULT false,
      updated_at bigint NOT NULL
    );
    CREATE INDEX threads_by_owner ON threads (space_id, user_id);
    CREATE INDEX threads_open ON threads (key) WHERE open;
    CREATE TABLE thread_events (
      thread_key text NOT NULL,
      seq integer NOT NULL,
      body text NOT NULL,
      PRIMARY KEY (thread_key, seq)
    );
    CREATE TABLE jobs (
      id text PRIMARY KEY,
      ord bigint GENERATED ALWAYS AS IDENTITY,
      thread_id text NOT NULL,
      status text NOT NULL,
      created_at bigint NOT NULL,
      body text NOT NULL
    );
    CREATE INDEX jobs_by_thread ON jobs (thread_id, created_at DESC, ord DESC);
    CREATE INDEX jobs_by_time ON jobs (created_at DESC, ord DESC);
    CREATE INDEX jobs_unfinished ON jobs (created_at) WHERE status IN ('queued', 'running');
    CREATE TABLE idempotency (
      scope text NOT NULL,
      key text NOT NULL,
      fingerprint text NOT NULL,
      response text NOT NULL,
      created_at bigint NOT NULL,
      expires_at bigint NOT NULL,
      PRIMARY KEY (scope, key)
    );
    CREATE INDEX idempotency_by_expiry ON idempotency (expires_at);
    CREATE TABLE meter_books (
      user_id text PRIMARY KEY,
      charged double precision NOT NULL
    );
    CREATE TABLE meter_holds (
      id text PRIMARY KEY,
      user_id text NOT NULL,
      units double precision NOT NULL,
      expires_at bigint NOT NULL
    );
    CREATE INDEX meter_holds_by_user ON meter_holds (user_id, expires_at);
    CREATE TABLE skills (
      path text COLLATE "C" PRIMARY KEY,
      namespace text NOT NULL,
      owner text,
      saved_at bigint NOT NULL,
      body text NOT NULL
    );
    CREATE INDEX skills_by_owner ON skills (owner);
    CREATE TABLE sessions (
      token_hash text PRIMARY KEY,
      user_id text NOT NULL,
      principal text NOT NULL,
      created_at bigint NOT NULL,
      expires_at bigint NOT NULL
    );
    CREATE INDEX sessions_by_expiry ON sessions (expires_at);
  `,
  // 2: several instances on one database: their heartbeats, who writes each thread, who runs each job, idempotent requests in flight.
  `
    CREATE TABLE instances (
      id text PRIMARY KEY,
      started_at bigint NOT NULL,
      heartbeat_at bigint NOT NULL
    );
    CREATE TABLE thread_leases (
      key text PRIMARY KEY,
      owner text NOT NULL,
      taken_at bigint NOT NULL
    );
    CREATE INDEX thread_leases_by_owner ON thread_leases (owner);
    ALTER TABLE jobs ADD COLUMN owner text;
    ALTER TABLE idempotency ADD COLUMN owner text;
    ALTER TABLE idempotency ALTER COLUMN response DROP NOT NULL;
  `,
  // 3: the users' own MCP servers (BYO MCP), by owner and label; the token stays on the server.
  `
    CREATE TABLE mcp_connectors (
      space text NOT NULL,
      user_id text NOT NULL,
      label text NOT NULL,
      url text NOT NULL,
      token text,
      created_at bigint NOT NULL,
      PRIMARY KEY (space, user_id, label)
    );
  `,
  // 4: the thread list: a row per listed thread and a row per message text, searched by a GIN index over its words.
  `
    CREATE TABLE thread_meta (
      key text PRIMARY KEY,
      user_id text NOT NULL,
      space_id text NOT NULL,
      thread_id text COLLATE "C" NOT NULL,
      title text NOT NULL DEFAULT '',
      preview text NOT NULL DEFAULT '',
      last_activity bigint NOT NULL,
      archived boolean NOT NULL DEFAULT false
    );
    CREATE INDEX thread_meta_by_owner ON thread_meta (space_id, user_id, archived, last_activity DESC, thread_id DESC);
    CREATE TABLE thread_texts (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      thread_key text NOT NULL,
      kind text NOT NULL,
      body text NOT NULL,
      words tsvector GENERATED ALWAYS AS (to_tsvector('simple', body)) STORED
    );
    CREATE INDEX thread_texts_by_thread ON thread_texts (thread_key, kind);
    CREATE INDEX thread_texts_words ON thread_texts USING GIN (words);
  `,
  // 5: jobs by time alone served only the age sweep, now part of the whole pass (a scan of the table every 10 minutes):
  // one index less to write for every job.
  `
    DROP INDEX IF EXISTS jobs_by_time;
  `,
];

/** The schema version this package writes. */
export const POSTGRES_SCHEMA_VERSION = MIGRATIONS.length;

/** The advisory lock key the migration holds (any fixed bigint: "ChatSurf" in ASCII). */
const MIGRATION_LOCK = '4857239350363386470';

/**
 * Opens a pool on a PostgreSQL database and brings its tables to this
 * package's schema version: the steps it lacks run in one transaction under
 * an advisory lock, so instances starting together neither race nor see half
 * a schema (versions applied are rows of `schema_migrations`). Refuses a
 * database written by a newer version.
 * @example
 * const db = await openPostgres(process.env.DATABASE_URL!);
 * const events = createPostgresEventStore(db);
 */
export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<PostgresDatabase> {
  if (typeof url !== 'string' || url.trim() === '') {
    throw new Error('openPostgres needs a connection URL, such as postgresql://user:password@host:5432/database.');
  }
  const { schema } = options;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new Error(`openPostgres: schema "${schema}" is not a plain name (lowercase letters, digits and _, at most 63, not starting with a digit).`);
  }
  const driver = requirePeer<typeof pg>('pg');
  const config: pg.PoolConfig = {
    max: DEFAULT_POOL_SIZE,
    ...(options.pool as pg.PoolConfig | undefined),
    connectionString: url,
    // Every pooled connection looks in the schema first, from its start-up on (no extra round trip).
    ...(schema ? { options: [options.pool?.options, `-c search_path=${schema}`].filter(Boolean).join(' ') } : {}),
  };
  const pool = new driver.Pool(config);
  const onError = options.onError ?? ((error: Error) => console.error('[chatsurface] PostgreSQL connection failed:', error));
  pool.on('error', onError);

  const transaction = async <T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    // Checked out, the connection is ours to listen to: one that ends between two statements (the
    // server shut down, the network dropped) emits 'error', which unheard would end the process.
    let broken: Error | null = null;
    const hear = (error: Error) => {
      broken ??= error;
      onError(error);
    };
    client.on('error', hear);
    const release = (error?: Error) => {
      client.off('error', hear);
      client.release(error ?? broken ?? undefined);
    };
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      release();
      return result;
    } catch (error) {
      // A connection whose rollback failed is broken: destroy it rather than pool it.
      await client.query('ROLLBACK').then(
        () => release(),
        (rollbackError: Error) => release(rollbackError),
      );
      throw error;
    }
  };

  let current = schema ?? 'public';
  try {
    await transaction(async (client) => {
      await client.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
      if (schema) await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
      const { rows } = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations');
      const version = rows[0]?.version ?? 0;
      if (version > POSTGRES_SCHEMA_VERSION) {
        throw new Error(
          `This database was written by a newer ChatSurface (schema ${version}, this one knows ${POSTGRES_SCHEMA_VERSION}); upgrade the package or use another database.`,
        );
      }
      for (let v = version; v < POSTGRES_SCHEMA_VERSION; v++) {
        await client.query(MIGRATIONS[v]!);
        await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [v + 1]);
      }
      current = (await client.query<{ schema: string }>('SELECT current_schema() AS schema')).rows[0]?.schema ?? current;
    });
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }

  let closed: Promise<void> | undefined;
  const named = options.prepare === false ? () => undefined : statementNames();
  return {
    schema: current,
    channel: channelOf(current),
    dedicated: () => new driver.Client(config),
    query: <R extends pg.QueryResultRow>(text: string, values?: unknown[]) => {
      const name = named(text);
      return name === undefined ? pool.query<R>(text, values) : pool.query<R>({ name, text, ...(values ? { values } : {}) });
    },
    transaction,
    close: () => (closed ??= pool.end()),
  };
}

/** Connections a pool opens at most, by default (each instance also holds one for LISTEN). */
export const DEFAULT_POOL_SIZE = 10;

/** Distinct statements prepared at most; the kit runs a few dozen. */
const MAX_PREPARED = 256;
const PREPARABLE = /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i;

/** A name for each statement text worth preparing (one plain statement), the same text the same name. */
function statementNames(): (text: string) => string | undefined {
  const names = new Map<string, string>();
  return (text) => {
    let name = names.get(text);
    if (name === undefined && names.size < MAX_PREPARED && PREPARABLE.test(text) && !text.includes(';')) {
      name = `chatsurface_${names.size + 1}`;
      names.set(text, name);
    }
    return name;
  };
}

/** A channel name per schema, within PostgreSQL's 63-byte identifiers (longer schema names keep a hash). */
function channelOf(schema: string): string {
  const name = `chatsurface_${schema}`;
  if (name.length <= 63) return name;
  let h = 0;
  for (const ch of schema) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return `${name.slice(0, 54)}_${(h >>> 0).toString(16).padStart(8, '0')}`;
}

/** The database's clock in epoch ms, as SQL: instances compare heartbeats on one clock, not their own. */
export const DB_NOW_MS = '(extract(epoch from clock_timestamp()) * 1000)::bigint';

/** Epoch ms as a bigint column takes it (an endless time kept as the largest safe integer, as in SQLite). */
export function epochMs(ms: number): number {
  return Number.isFinite(ms) ? Math.floor(ms) : ms > 0 ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER;
}
