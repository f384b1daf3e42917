import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { homedir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { createAnthropicDriver } from 'chatsurface/anthropic';
import { createOpenAIDriver } from 'chatsurface/openai';
import { catalogNode, createOfflineDriver, defineSkillCapability, parseSkillMarkdown, type ModelDriver } from 'chatsurface/runtime';
import { createFileProbe, createProcessHarness, createWorkspaceServer, defineScriptCapability, type McpAuthOptions, type WorkspaceServer } from 'chatsurface/server';
import { z } from 'zod';
// The session store and the authenticators (to come from 'chatsurface/server' once exported there).
import { openPostgres } from '../../src/runtime/node/postgres';
import { createPostgresSessionStore } from '../../src/runtime/node/postgresSessionStore';
import { createSqliteSessionStore } from '../../src/runtime/node/sqliteSessionStore';
import type { SessionStore } from '../../src/runtime/stores/sessionStore';
import { anyOf, bearerKeys, endSession, issueSession, sessionCookie } from '../../src/server/authenticators';
import { serveCorpus } from '../corpus/serveCorpus';
import { createGuestLimiter, type GuestLimits } from './guestLimit';
import { createSqliteRecordStore } from '../records/sqliteStore';
import { attachedCsv, importWithUploads } from './attachedCsv';
import { createFileAttachmentStore } from '../../src/runtime/node/fileAttachmentStore';
import { createPostgresAttachmentStore } from '../../src/runtime/node/postgresAttachmentStore';
import { openWorkspaceDatabase } from '../../src/runtime/node/sqliteDatabase';
import { anticipation, confirmStanding, recordCapabilities, recordCounts, TENANT, type ExportTarget } from './capabilities';

/** The reference app's root: its scripts, data and skills live under it (what it writes does not: see `defaultStateDir`). */
export const appRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Where the demo keeps what it writes (its databases, with users' chats and
 * tokens, and the CRM exports) unless told: outside the checkout, so the dev
 * server that serves the page can never serve them.
 */
export const defaultStateDir = (): string => join(process.env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'chatsurface-demo');

export interface ReferenceServerOptions {
  /** Where the databases and the exports go. @default `defaultStateDir()`, `~/.local/state/chatsurface-demo` */
  stateDir?: string;
  /** The model. @default `demoDriver()`: an OpenAI-compatible server with OPENAI_BASE_URL, Claude with ANTHROPIC_API_KEY, else the offline model */
  driver?: ModelDriver;
  /** Enrichment pace per record. @default 400 */
  enrichDelayMs?: number;
  /** How many new guests page loads may make, per client address and in all. @default 30 per address and 2,000 in all per 10 minutes */
  guests?: GuestLimits;
}

export interface ReferenceServer {
  server: WorkspaceServer;
  /** Where the signed-in browsers are kept: PostgreSQL with DATABASE_URL (every instance signs them in), else `<stateDir>/sessions.db`. */
  sessions: SessionStore;
  /**
   * Signs a browser in as a new anonymous user (`guest-…`) unless the request
   * already carries a live session: the `Set-Cookie` value to send, or null.
   * Throws `GuestLimitError` when the address (`address`, the client's) or
   * everyone has made too many new guests just now.
   */
  issueSessionCookie(request: Request, address?: string): Promise<string | null>;
  close(): Promise<void>;
}

/**
 * The reference workspace on the kit's server: records in SQLite, the CSV
 * ingest script with its postconditions, enrichment, the CRM export (asks
 * first), corpus search over a local MCP server pinned to the tenant, and the
 * crawl-fetch-ingest SKILL.md.
 */
export async function createReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const stateDir = resolve(options.stateDir ?? defaultStateDir());
  const guests = createGuestLimiter(options.guests);
  mkdirSync(stateDir, { recursive: true });
  const dataDir = join(appRoot, 'data');
  const recordsDb = join(stateDir, 'records.db');
  const records = createSqliteRecordStore(recordsDb);
  const corpus = await serveCorpus();

  const exports: ExportTarget = {
    async write(name, text) {
      const path = join(stateDir, 'exports', name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      return relative(stateDir, path);
    },
  };
  const counts = recordCounts(records);
  // The export's postcondition (`exports/*.csv`) looks where the exports are written.
  const files = createFileProbe({ appRoot: stateDir });

  const importCsv = (data: string) => defineScriptCapability({
    appRoot,
    name: 'records.import_csv',
    title: 'Import CSV',
    description: 'Imports a CSV file from the data folder into the records; rows that fail the schema are reported and skipped.',
    examples: ['import customers.csv', 'bring in the spreadsheet', 'load a CSV file', 'upload the customer list'],
    input: z.object({
      file: z
        .string()
        .regex(/^[\w.-]+\.csv$/, 'must be a CSV file name from the data folder, e.g. "customers.csv"')
        .meta({ title: 'File', description: 'A CSV file in the data folder, e.g. customers.csv.' }),
    }),
    path_args: ['file'],
    // It only inserts, and a row whose email exists is skipped: safe to run again without asking.
    annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    command: ['node', 'scripts/import-csv.mjs', '{{file}}'],
    env: { RECORDS_DB: recordsDb, RECORDS_DATA: data },
    timeout_ms: 30_000,
    expected_effect: [
      { type: 'row_count_change', entity: 'records', op: '+=', value: { count: 'csv_rows:{{file}}' } },
      { type: 'exit_code', equals: 0 },
    ],
  });
  const skill = defineSkillCapability(readFileSync(join(appRoot, 'skills/crawl-fetch-ingest/SKILL.md'), 'utf8'), {
    file: 'skills/crawl-fetch-ingest/SKILL.md',
    title: 'Plan an ingestion run',
  });

  // Every browser is its own anonymous user (a session cookie); scripts and agents use DEMO_API_KEY.
  const databaseUrl = process.env.DATABASE_URL;
  const sessionDb = databaseUrl ? await openPostgres(databaseUrl) : null;
  const sqliteSessions = sessionDb ? null : createSqliteSessionStore(join(stateDir, 'sessions.db'));
  const sessions: SessionStore = sessionDb ? createPostgresSessionStore(sessionDb) : sqliteSessions!;
  const session = sessionCookie({ sessions });
  const authenticate = anyOf(session, bearerKeys(process.env.DEMO_API_KEY ? [{ id: 'demo', key: process.env.DEMO_API_KEY }] : []));

  let attachmentsDb: ReturnType<typeof openWorkspaceDatabase> | null = null;
  // A CSV a user attaches is what "import this" imports (attachedCsv.ts): its import reads the upload, not the data folder.
  const uploads = attachedCsv(
    sessionDb ? createPostgresAttachmentStore(sessionDb) : createFileAttachmentStore((attachmentsDb = openWorkspaceDatabase(join(stateDir, 'attachments.db')))),
    join(stateDir, 'uploads'),
    authenticate,
  );
  const importAttached = importWithUploads(importCsv, dataDir, uploads);

  const driver = options.driver ?? (await demoDriver());
  const mcpAuth = demoMcpAuth();
  const server = await createWorkspaceServer({
    capabilities: [...recordCapabilities(records, exports, { enrichDelayMs: options.enrichDelayMs ?? 400 }), importAttached, skill],
    attachments: { store: uploads.store },
    mcpServers: [{ name: 'corpus', url: corpus.url, tools: ['search'], pinned: { search: { collection: TENANT } } }],
    driver,
    alignment: 'strict',
    anticipation,
    workspace: {
      router: confirmStanding,
      // /harness Echo hands the thread to a scripted command-line harness (what Claude Code or Copilot would be).
      // /review runs in a sub-thread of its own (launchesSubThread) and reports back (issue 15).
      skills: [parseSkillMarkdown('skills/review/review.md', readFileSync(join(appRoot, 'skills/review/review.md'), 'utf8'), 'Skill'), catalogNode('Harness/echo', { nodeType: 'Harness', name: 'Echo', description: 'A scripted command-line harness: /login, then it echoes.', order: 3, commands: ['login', 'logout', 'status'] })],
      harnesses: { 'Harness/echo': echoHarness(join(stateDir, 'echo-harness')) },
    },
    // DATABASE_URL (postgres://…) keeps threads, jobs and skills in PostgreSQL; else a SQLite file in the state folder.
    // Two instances on one DATABASE_URL (and one DEMO_STATE for the records file) serve the same users and threads: docs/server.md.
    database: databaseUrl ?? join(stateDir, 'workspace.db'),
    authenticate,
    // MCP_AUTH_ISSUER: /mcp also takes access tokens of that authorization server (OAuth 2.1, the MCP authorization spec).
    ...(mcpAuth ? { mcpAuth } : {}),
    // Each signed-in user may connect MCP servers of their own (/mcp). The demo runs on one machine, so loopback is
    // allowed, on one port only (README step 10's 3001, or DEMO_CONNECTOR_HOSTS): never the demo's own port, its
    // corpus server's or a database's.
    connectors: {
      allowHosts: (process.env.DEMO_CONNECTOR_HOSTS ?? '127.0.0.1:3001,localhost:3001').split(',').map((h) => h.trim()).filter(Boolean),
      // Users' tokens are sealed in the database with a key kept beside it, in a file of its own (0600).
      tokenKey: process.env.CHATSURFACE_TOKEN_KEY ?? demoTokenKey(stateDir),
    },
    probes: {
      countRows: (entity) => {
        const file = /^csv_rows:(.+)$/.exec(entity)?.[1];
        if (file === undefined) return counts(entity);
        // The rows of the file the import reads: the thread's attached copy when there is one.
        return uploads.folderForRequest(file).then((folder) => csvRows(folder ?? dataDir, file));
      },
      listFiles: files.listFiles,
    },
  });
  // Each request is served knowing its thread, for the row count of an attached CSV's import.
  const serveAll = server.fetch;
  (server as { fetch: WorkspaceServer['fetch'] }).fetch = (request, env) => uploads.serve(request, () => serveAll(request, env));
  // The host's own screen reads its records here (not a kit route: the app's).
  server.app.get('/app/records', async (c) => {
    // The host's own screen, behind the same sign-in as the chat.
    if (!(await authenticate(c.req.raw))) return c.json({ error: { code: 'unauthorized', message: 'Sign in to see the records: reload the page.' } }, 401);
    const [rows, total] = await Promise.all([records.list({ limit: 500 }), records.count()]);
    return c.json({ records: rows, total });
  });
  // Who this browser (or key) is signed in as: the page shows it in its header.
  server.app.get('/app/me', async (c) => {
    const principal = await authenticate(c.req.raw);
    if (!principal) return c.json({ error: { code: 'unauthorized', message: 'No session: reload the page to get one.' } }, 401);
    return c.json({ user: principal.user });
  });
  // Sign-out (the header's button): the session ends; the next page load is a new guest. Behind the kit's
  // guard like every route here, so another site cannot post it (403) and the body must be JSON (415).
  server.app.post('/app/sign-out', async (c) => {
    const setCookie = await endSession(c.req.raw, { sessions });
    return c.json({ signedOut: true }, 200, { 'set-cookie': setCookie });
  });
  return {
    server,
    sessions,
    async issueSessionCookie(request, address = 'unknown') {
      if (await session(request)) return null;
      guests.take(address);
      return (await issueSession(request, { sessions })).setCookie;
    },
    async close() {
      await server.close();
      sqliteSessions?.close();
      attachmentsDb?.close();
      await sessionDb?.close();
      await corpus.close();
      records.close();
    },
  };
}

/**
 * The demo's model, from the environment: with OPENAI_BASE_URL, the server
 * there that speaks OpenAI's Chat Completions (llama.cpp's server, Ollama,
 * vLLM, LM Studio, OpenAI itself) answering with OPENAI_MODEL (when unset,
 * the first model its `/models` lists), OPENAI_API_KEY sent when set; else
 * Claude with ANTHROPIC_API_KEY (thinking with a budget of ANTHROPIC_THINKING_BUDGET tokens
 * when set; citations of capability results with ANTHROPIC_CITATIONS=1); else the offline model.
 */
export async function demoDriver(env: Record<string, string | undefined> = process.env): Promise<ModelDriver> {
  const baseURL = env.OPENAI_BASE_URL?.trim();
  if (baseURL) {
    const apiKey = env.OPENAI_API_KEY?.trim() || undefined;
    const model = env.OPENAI_MODEL?.trim() || (await firstServedModel(baseURL, apiKey));
    return createOpenAIDriver({ baseURL, model, ...(apiKey ? { apiKey } : {}) });
  }
  if (!env.ANTHROPIC_API_KEY) return createOfflineDriver();
  const budget = Number(env.ANTHROPIC_THINKING_BUDGET);
  const citations = env.ANTHROPIC_CITATIONS === '1' ? { citations: true } : {};
  return createAnthropicDriver(budget > 0 ? { maxTokens: Math.max(2048, budget + 2048), thinking: { type: 'enabled', budget_tokens: budget }, ...citations } : citations);
}

/**
 * The MCP door's OAuth, from the environment: with MCP_AUTH_ISSUER (an
 * authorization server's issuer URL, https or loopback http) `/mcp` takes
 * its access tokens beside DEMO_API_KEY and advertises it in
 * `/.well-known/oauth-protected-resource`. MCP_AUTH_SCOPES (space- or
 * comma-separated) are the scopes a token must carry, none when unset;
 * MCP_AUTH_RESOURCE is the URL clients reach `/mcp` at, the audience a token
 * must name (default `http://127.0.0.1:<PORT>/mcp`, the demo's own).
 */
export function demoMcpAuth(env: Record<string, string | undefined> = process.env): McpAuthOptions | undefined {
  const issuer = env.MCP_AUTH_ISSUER?.trim();
  if (!issuer) return undefined;
  const requiredScopes = (env.MCP_AUTH_SCOPES ?? '').split(/[\s,]+/).filter(Boolean);
  const resource = env.MCP_AUTH_RESOURCE?.trim() || `http://127.0.0.1:${env.PORT?.trim() || 5173}/mcp`;
  return { issuer, resource, ...(requiredScopes.length ? { requiredScopes } : {}) };
}

/** The first model an OpenAI-compatible server lists (`GET /models`), for a demo started without OPENAI_MODEL. */
async function firstServedModel(baseURL: string, apiKey: string | undefined): Promise<string> {
  const url = `${baseURL.replace(/\/+$/, '')}/models`;
  const failed = (why: string) =>
    new Error(`OPENAI_MODEL is not set and the model server at ${baseURL} did not name a model (${why}). Set OPENAI_MODEL to the model it serves, e.g. OPENAI_MODEL=llama3.2 for Ollama.`);
  let response: Response;
  try {
    response = await fetch(url, { headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {}, signal: AbortSignal.timeout(10_000) });
  } catch (error) {
    throw failed(`GET ${url} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!response.ok) throw failed(`GET ${url} answered ${response.status}`);
  const body = (await response.json().catch(() => null)) as { data?: { id?: unknown }[] } | null;
  const id = body?.data?.find((m) => typeof m.id === 'string' && m.id)?.id;
  if (typeof id !== 'string') throw failed(`GET ${url} listed none`);
  return id;
}

/** The demo's key for users' MCP tokens: made once (32 random bytes) in the state folder, readable by its owner only. */
function demoTokenKey(stateDir: string): string {
  const file = join(stateDir, 'token.key');
  if (!existsSync(file)) {
    try {
      writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another demo instance on the same state folder wrote it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return readFileSync(file, 'utf8');
}

/** The reference app's command-line harness: `reference/harness/echo-harness.mjs`, its sign-ins under `state`. */
function echoHarness(state: string) {
  const script = join(appRoot, 'harness/echo-harness.mjs');
  const command = (action: string) => [process.execPath, script, action];
  return createProcessHarness({ label: 'Echo harness', send: command('send'), login: command('login'), logout: command('logout'), status: command('status'), env: { ECHO_HARNESS_STATE: state } });
}

/** Non-blank data rows of a CSV in the data folder: what an import should add. */
function csvRows(dataDir: string, file: string): number {
  const path = resolve(dataDir, file);
  if (!path.startsWith(dataDir + sep)) throw new Error(`${file} is not in the data folder`);
  const rows = parse(readFileSync(path, 'utf8'), { columns: true, skip_empty_lines: true, relax_column_count: true }) as Record<string, string>[];
  return rows.filter((row) => Object.values(row).some((cell) => cell.trim() !== '')).length;
}
