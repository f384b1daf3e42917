// PostgreSQL for the store suites: each test file gets a database of its own on this run's
// throwaway cluster (started on first use, shared by every test file, stopped by the global set-up)
// or on the server CHATSURFACE_TEST_PG_URL names, and each test a fresh schema in it.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, describe, inject } from 'vitest';
import { openPostgres, type PostgresDatabase } from '../runtime/node/postgres';
import { PostgresMissing, startCluster } from '../../scripts/postgres-cluster.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder of this run's test cluster (src/test/postgresGlobalSetup.ts). */
    chatsurfacePgDir: string;
  }
}

/** Where a test's tables live: a schema of its own in the test file's database. */
export interface TestDatabase {
  url: string;
  schema: string;
}

export interface TestPostgres {
  /** Why the PostgreSQL tests are skipped (no PostgreSQL, and not required), or null when they run. */
  skip: string | null;
  /** A new, empty place for tables (a fresh schema in this file's database). */
  createDatabase(): Promise<TestDatabase>;
  /** Opens a new, empty place, or another pool on `target` (another server instance); closed after the test. */
  open(target?: TestDatabase): Promise<PostgresDatabase>;
}

/** `npm test` and CI set this (or CI): there, a missing PostgreSQL fails the tests rather than skipping them. */
const required = () => process.env.CHATSURFACE_REQUIRE_PG === '1' || (Boolean(process.env.CI) && process.env.CI !== 'false');

/**
 * The test server's admin URL: CHATSURFACE_TEST_PG_URL, else the run's
 * cluster, started by the first test file that asks (the others wait for it).
 */
async function adminUrl(): Promise<string> {
  if (process.env.CHATSURFACE_TEST_PG_URL) return process.env.CHATSURFACE_TEST_PG_URL;
  let dir: string | undefined;
  try {
    dir = inject('chatsurfacePgDir');
  } catch {
    dir = undefined;
  }
  if (!dir) {
    throw new PostgresMissing("no test PostgreSQL: run vitest with this repo's vite.config.ts (its node project's globalSetup), or set CHATSURFACE_TEST_PG_URL.");
  }
  const urlFile = join(dir, 'url');
  const failedFile = join(dir, 'failed');
  let starter = false;
  try {
    mkdirSync(join(dir, 'lock'));
    starter = true;
  } catch {
    // Another test file is starting it.
  }
  if (starter) {
    try {
      const url = await startCluster(dir);
      writeFileSync(`${urlFile}.tmp`, url);
      renameSync(`${urlFile}.tmp`, urlFile);
      return url;
    } catch (error) {
      writeFileSync(failedFile, JSON.stringify({ missing: error instanceof PostgresMissing, message: (error as Error).message }));
      throw error;
    }
  }
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    try {
      return readFileSync(urlFile, 'utf8');
    } catch {
      // Not yet.
    }
    try {
      const failed = JSON.parse(readFileSync(failedFile, 'utf8')) as { missing: boolean; message: string };
      throw failed.missing ? new PostgresMissing(failed.message) : new Error(failed.message);
    } catch (error) {
      if (!(error as NodeJS.ErrnoException).code) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`The test PostgreSQL in ${dir} did not start within 120 s.`);
}

/**
 * PostgreSQL for this test file. Call at the top level (`await testPostgres()`)
 * and wrap the file's PostgreSQL tests in `describePostgres`.
 * @example
 * const pg = await testPostgres();
 * describePostgres(pg, () => eventStoreSuite('PostgreSQL', async () => createPostgresEventStore(await pg.open())));
 */
export async function testPostgres(): Promise<TestPostgres> {
  let admin: pg.Pool | null = null;
  let base = '';
  let failure: Error | null = null;
  let skip: string | null = null;
  try {
    base = await adminUrl();
    admin = new pg.Pool({ connectionString: base, max: 1 });
    admin.on('error', () => undefined);
  } catch (error) {
    if (error instanceof PostgresMissing && !required()) skip = error.message;
    else failure = new Error(`PostgreSQL tests cannot run: ${(error as Error).message}`);
  }
  const opened: PostgresDatabase[] = [];
  let database: Promise<string> | null = null;
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((db) => db.close()));
  });
  afterAll(async () => {
    // A throwaway cluster goes whole; on a server of one's own, the file's database goes.
    const name = database && (await database.catch(() => null));
    if (name && process.env.CHATSURFACE_TEST_PG_URL) await admin?.query(`DROP DATABASE IF EXISTS ${new URL(name).pathname.slice(1)} WITH (FORCE)`);
    await admin?.end();
  });

  /** The file's own database (made on first use): test files run in parallel without meeting. */
  const fileDatabase = () =>
    (database ??= (async () => {
      if (!admin) throw failure ?? new Error(skip ?? 'no PostgreSQL');
      const name = `t_${randomBytes(6).toString('hex')}`;
      await admin.query(`CREATE DATABASE ${name}`);
      const url = new URL(base);
      url.pathname = `/${name}`;
      return url.toString();
    })());

  // A schema costs a few milliseconds where a database costs a few hundred, so each test gets a schema.
  const createDatabase = async (): Promise<TestDatabase> => ({ url: await fileDatabase(), schema: `s_${randomBytes(6).toString('hex')}` });
  return {
    skip,
    createDatabase,
    async open(target) {
      const { url, schema } = target ?? (await createDatabase());
      // A dead server shows up as the test's failure, not as an 'error' event nobody hears.
      const db = await openPostgres(url, { schema, onError: () => undefined });
      opened.push(db);
      return db;
    },
  };
}

/** A describe block for a file's PostgreSQL tests: skipped, saying why, only when PostgreSQL is missing and not required. */
export function describePostgres(pg: TestPostgres, body: () => void): void {
  if (pg.skip) describe.skip(`PostgreSQL (skipped: ${pg.skip})`, body);
  else describe('PostgreSQL', body);
}
