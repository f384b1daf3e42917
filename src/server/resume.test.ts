import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ThreadEvent } from '../runtime/events';
import { foldAll, initialThreadState, type Row, type ThreadState } from '../runtime/fold';
import { createRemoteWorkspace, type RemoteWorkspace } from '../workspace/remoteWorkspace';

/**
 * A real server process, killed with SIGKILL and restarted on the same SQLite
 * file. The entry below is bundled with esbuild (better-sqlite3, a native
 * module, stays external) and run with plain `node`.
 */
const ENTRY = `
import { z } from 'zod';
import { createWorkspaceServer } from './createWorkspaceServer';
import { bearerKeys } from './authenticators';
import { defineCapability } from '../runtime/capability';
import { resultText, textResult } from '../runtime/results';
import { appendFileSync } from 'node:fs';

/** Removes the report (a destructive mutate: it waits for approval). */
const remove = defineCapability({
  name: 'report.delete',
  title: 'Delete report',
  description: 'Deletes the report.',
  kind: 'mutate',
  input: z.object({}),
  handler: async () => textResult('Deleted the report.', { deleted: true }),
});

const report = defineCapability({
  name: 'report.build',
  title: 'Build report',
  description: 'Builds a report section by section.',
  input: z.object({ sections: z.number().int().min(1).max(50), ms: z.number().int().min(0).max(2000) }),
  handler: async ({ sections, ms }, ctx) => {
    for (let i = 1; i <= sections; i++) {
      await new Promise((resolve) => setTimeout(resolve, ms));
      ctx.progress(i, sections, 'Section ' + i);
    }
    return textResult('Built ' + sections + ' sections.', { sections });
  },
});

/** Deterministic: a message naming a report builds one (sections and pace from the text); anything else is echoed word by word. */
const driver = {
  info: { id: 'scripted', label: 'Scripted model' },
  async *respond({ messages, signal }) {
    // Every request the model is sent, as JSON lines: what a restarted server rebuilds is compared with it.
    if (process.env.REQUESTS) appendFileSync(process.env.REQUESTS, JSON.stringify(messages) + '\\n');
    const last = messages.at(-1);
    if (last.role === 'tool') {
      for (const word of ('Done: ' + resultText(last.result)).split(' ')) yield { type: 'text', text: word + ' ' };
      return;
    }
    if (/delete report/.test(last.text)) {
      yield { type: 'invoke', capability: 'report.delete', args: {} };
      return;
    }
    const slow = /talk slowly (\\d+) at (\\d+)/.exec(last.text);
    if (slow) {
      for (let i = 0; i < Number(slow[1]) && !signal.aborted; i++) {
        await new Promise((resolve) => setTimeout(resolve, Number(slow[2])));
        yield { type: 'text', text: 'word' + i + ' ' };
      }
      return;
    }
    const m = /build report (\\d+) at (\\d+)/.exec(last.text);
    if (m) {
      yield { type: 'invoke', capability: 'report.build', args: { sections: Number(m[1]), ms: Number(m[2]) } };
      return;
    }
    for (const word of ('You said: ' + last.text).split(' ')) yield { type: 'text', text: word + ' ' };
  },
};

const server = await createWorkspaceServer({ capabilities: [report, remove], driver, database: process.env.DB, authenticate: bearerKeys(['resume-key-0123456789']), heartbeatMs: 200 });
const { url } = await server.listen({ port: Number(process.env.PORT ?? 0) });
console.log('LISTENING ' + url);
`;

/** The one key: the same principal on the workspace protocol and on REST. */
const AUTH = { authorization: 'Bearer resume-key-0123456789' };
let bundle = '';
let dir = '';
const children = new Set<ChildProcess>();
const remotes: RemoteWorkspace[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chatsurface-resume-'));
  bundle = join(dir, 'server.mjs');
  const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
  await build({
    stdin: { contents: ENTRY, resolveDir: new URL('.', import.meta.url).pathname, loader: 'ts', sourcefile: 'resume-entry.ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: bundle,
    logLevel: 'error',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    plugins: [{ name: 'native-sqlite', setup: (b) => b.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: sqlite, external: true })) }],
  });
}, 60_000);

afterEach(() => {
  for (const remote of remotes.splice(0)) remote.close();
  for (const child of children) child.kill('SIGKILL');
  children.clear();
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Starts the server process; resolves with its URL once it listens. */
function startServer(db: string, port = 0, requests = ''): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [bundle], { env: { ...process.env, DB: db, PORT: String(port), REQUESTS: requests }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk;
      const match = /LISTENING (\S+)/.exec(out);
      if (match) resolve({ url: match[1]!, child });
    });
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk));
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before listening: ${err}`)));
  });
}

function kill(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
    children.delete(child);
  });
}

/** A client that folds one thread and records every seq its listener was handed. */
async function client(url: string, threadId: string) {
  /** The Last-Event-ID of every event-stream request this client made. */
  const resumedFrom: string[] = [];
  const recording: typeof fetch = (input, init) => {
    if (String(input).endsWith('/events')) resumedFrom.push(new Headers(init?.headers).get('last-event-id') ?? '');
    return fetch(input, init);
  };
  const remote = await createRemoteWorkspace({ url, retryMs: 300, maxRetryMs: 600, fetch: recording, headers: AUTH });
  remotes.push(remote);
  let state: ThreadState = initialThreadState;
  const seqs: number[] = [];
  const events: ThreadEvent[] = [];
  remote.subscribe(threadId, (event) => {
    seqs.push(event.seq);
    events.push(event);
    state = foldAll(state, [event]);
  });
  return { remote, seqs, events, resumedFrom, get state() { return state; } };
}

/** What a user sees, without the ids and clocks that differ from run to run. */
function transcript(state: ThreadState) {
  return state.rows.map((row: Row) => {
    const { id: _id, ...rest } = row as Row & Record<string, unknown>;
    for (const key of ['turn_id', 'job_id', 'call_id', 'startedAt', 'endedAt', 'invocation_id', 'driver', 'usage']) delete (rest as Record<string, unknown>)[key];
    return rest;
  });
}

const lastRow = (state: ThreadState) => state.rows.at(-1) as (Row & { text?: string; status?: string }) | undefined;

describe('a killed server, restarted on the same SQLite file', () => {
  it('resumes the remote workspace with Last-Event-ID: its transcript equals an uninterrupted run, without duplicates', async () => {
    const db = join(dir, 'resume.db');
    const a = await startServer(db);
    const port = Number(new URL(a.url).port);
    const watched = await client(a.url, 'resume');
    await watched.remote.send({ threadId: 'resume', text: 'build report 4 at 20' });
    await watched.remote.send({ threadId: 'resume', text: 'hello there' });
    const beforeKill = watched.seqs.length;
    expect(lastRow(watched.state)).toMatchObject({ kind: 'assistant', status: 'done', text: 'You said: hello there ' });

    // Killed while the client's event stream is open.
    await kill(a.child);
    // Restarted on the same file and port; a turn runs while the first client is still away.
    const b = await startServer(db, port);
    const other = await createRemoteWorkspace({ url: b.url, headers: AUTH });
    remotes.push(other);
    await other.send({ threadId: 'resume', text: 'build report 3 at 10' });
    // The first client reconnects by itself with Last-Event-ID and catches up, then goes on live.
    await expect.poll(() => lastRow(watched.state)?.text, { timeout: 10_000, interval: 25 }).toBe('Done: Built 3 sections. ');
    await watched.remote.send({ threadId: 'resume', text: 'still here' });
    expect(lastRow(watched.state)).toMatchObject({ text: 'You said: still here ' });

    // It asked the restarted server for what came after the last event it had, not for the whole log.
    expect(watched.resumedFrom[0]).toBe('0');
    expect(watched.resumedFrom.at(-1)).toBe(String(beforeKill));
    // Every seq exactly once, in order, across the kill.
    expect(watched.seqs.length).toBeGreaterThan(beforeKill);
    expect(watched.seqs).toEqual(watched.seqs.map((_, i) => i + 1));
    // The same as a client that reads the whole log from the restarted server.
    const fresh = await client(b.url, 'resume');
    await expect.poll(() => fresh.seqs.length, { timeout: 5_000 }).toBe(watched.seqs.length);
    expect(fresh.events).toEqual(watched.events);

    // The same as a run that was never interrupted.
    const c = await startServer(join(dir, 'reference.db'));
    const reference = await client(c.url, 'resume');
    for (const text of ['build report 4 at 20', 'hello there', 'build report 3 at 10', 'still here']) {
      await reference.remote.send({ threadId: 'resume', text });
    }
    expect(transcript(watched.state)).toEqual(transcript(reference.state));
    expect(transcript(watched.state).map((r) => r.kind)).toEqual(['user', 'invocation', 'assistant', 'user', 'assistant', 'user', 'invocation', 'assistant', 'user', 'assistant']);
  }, 60_000);

  it('keeps every thread and job; a job cut short by the kill is reported as interrupted, not left running', async () => {
    const db = join(dir, 'interrupted.db');
    const a = await startServer(db);
    const port = Number(new URL(a.url).port);
    const watched = await client(a.url, 'cut');
    const turn = watched.remote.send({ threadId: 'cut', text: 'build report 40 at 50' }).catch((error: Error) => error);
    // Wait for the job to be running with some progress, then kill the process mid-stream.
    await expect
      .poll(() => watched.state.rows.some((r) => r.kind === 'invocation' && (r.progress?.progress ?? 0) >= 2), { timeout: 10_000, interval: 10 })
      .toBe(true);
    await kill(a.child);
    expect(await turn).toBeInstanceOf(Error);

    const b = await startServer(db, port);
    const card = () => watched.state.rows.find((r) => r.kind === 'invocation');
    await expect.poll(() => card() && (card() as { state: string }).state, { timeout: 10_000, interval: 25 }).toBe('failed');
    expect(card()).toMatchObject({ error: { code: 'interrupted' }, recoverable: true });
    const job = await (await fetch(`${b.url}/v1/jobs/${card()!.id}`, { headers: { authorization: 'Bearer resume-key-0123456789' } })).json();
    expect(job).toMatchObject({ status: 'failed', error: { code: 'interrupted' }, capability: 'report.build' });
    // The thread goes on.
    await watched.remote.send({ threadId: 'cut', text: 'are you back' });
    expect(lastRow(watched.state)).toMatchObject({ text: 'You said: are you back ' });
    expect(watched.seqs).toEqual(watched.seqs.map((_, i) => i + 1));
  }, 60_000);

  it('closes a turn cut mid-reply as interrupted, keeps the approval decidable, and rebuilds the model request the live server would send', async () => {
    const db = join(dir, 'midturn.db');
    const requestsA = join(dir, 'requests-a.jsonl');
    const a = await startServer(db, 0, requestsA);
    const port = Number(new URL(a.url).port);
    const watched = await client(a.url, 'mid');
    await watched.remote.send({ threadId: 'mid', text: 'build report 2 at 5' });
    await watched.remote.send({ threadId: 'mid', text: 'delete report please' });
    const approval = watched.state.rows.find((r) => r.kind === 'approval');
    expect(approval).toMatchObject({ status: 'pending', title: 'Delete report' });
    // A second thread, idle when the process dies, with an approval waiting.
    const clean = await client(a.url, 'clean');
    await clean.remote.send({ threadId: 'clean', text: 'build report 2 at 5' });
    await clean.remote.send({ threadId: 'clean', text: 'delete report please' });
    const cleanApproval = clean.state.rows.find((r) => r.kind === 'approval')!;

    // Killed mid-turn and mid-reply: words are streaming.
    const turn = watched.remote.send({ threadId: 'mid', text: 'talk slowly 400 at 20' }).catch((error: Error) => error);
    const streaming = () => watched.state.rows.find((r) => r.kind === 'assistant' && r.text.startsWith('word0')) as { text: string; status: string } | undefined;
    await expect.poll(() => (streaming()?.text ?? '').split(' ').length, { timeout: 10_000, interval: 10 }).toBeGreaterThan(4);
    expect(streaming()?.status).toBe('streaming');
    const cutAt = streaming()!.text;
    expect(watched.state.activeTurn).not.toBeNull();
    await kill(a.child);
    expect(await turn).toBeInstanceOf(Error);

    const requestsB = join(dir, 'requests-b.jsonl');
    const b = await startServer(db, port, requestsB);
    // The client reconnects by itself and sees everything that was open closed, in words a user can read.
    await expect.poll(() => watched.state.activeTurn, { timeout: 10_000, interval: 25 }).toBeNull();
    const reply = watched.state.rows.find((r) => r.kind === 'assistant' && r.text.startsWith('word0'));
    expect(reply).toMatchObject({ status: 'interrupted' });
    expect((reply as { text: string }).text.startsWith(cutAt!)).toBe(true);
    expect(watched.state.rows.some((r) => r.kind === 'assistant' && r.status === 'streaming')).toBe(false);
    // The cut reply says so itself (its row reads "The server restarted; this reply was cut off."): no second notice.
    expect(watched.state.rows.some((r) => r.kind === 'error' && r.code === 'interrupted')).toBe(false);
    expect(lastRow(watched.state)).toBe(reply);
    // The approval waited through the restart and can still be decided.
    expect(watched.state.rows.find((r) => r.id === approval!.id)).toMatchObject({ status: 'pending' });
    await watched.remote.decide({ threadId: 'mid', id: approval!.id, decision: 'approve' });
    expect(watched.state.rows.find((r) => r.id === approval!.id)).toMatchObject({ status: 'approved' });
    expect(watched.state.rows.find((r) => r.kind === 'invocation' && r.capability === 'report.delete')).toMatchObject({ state: 'done' });
    expect(lastRow(watched.state)).toMatchObject({ kind: 'assistant', text: 'Done: Deleted the report. ' });

    // The request a restarted server builds from the log equals the one a live server builds for the same decision.
    await watched.remote.send({ threadId: 'mid', text: 'hello again' });
    expect(lastRow(watched.state)).toMatchObject({ kind: 'assistant', text: 'You said: hello again ' });
    await clean.remote.decide({ threadId: 'clean', id: cleanApproval.id, decision: 'approve' });
    const rebuilt = readRequests(requestsB).at(-1)!;
    const c = await startServer(join(dir, 'live.db'), 0, join(dir, 'requests-c.jsonl'));
    const reference = await client(c.url, 'clean');
    await reference.remote.send({ threadId: 'clean', text: 'build report 2 at 5' });
    await reference.remote.send({ threadId: 'clean', text: 'delete report please' });
    await reference.remote.decide({ threadId: 'clean', id: reference.state.rows.find((r) => r.kind === 'approval')!.id, decision: 'approve' });
    const built = readRequests(join(dir, 'requests-c.jsonl')).at(-1)!;
    expect(rebuilt.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'tool']);
    expect(anonymise(rebuilt)).toEqual(anonymise(built));
    // And the thread cut mid-reply gives the model the words that did arrive, with every call answered.
    const resumed = readRequests(requestsB).find((messages) => messages.at(-1)?.text === 'hello again')!;
    expect(resumed.some((m) => m.role === 'assistant' && String(m.text).startsWith(cutAt.trim()))).toBe(true);
  }, 60_000);
});

/** The model requests a server's driver saw, one per line. */
function readRequests(file: string): Array<Array<Record<string, unknown>>> {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

/** Ids (`call_…`, `inv_…`) made from run to run replaced by their order of appearance. */
function anonymise(value: unknown): unknown {
  const seen = new Map<string, string>();
  return JSON.parse(JSON.stringify(value), (_key, v) => {
    if (typeof v !== 'string' || !/^[a-z]+_[a-z0-9]{6,}$/.test(v)) return v;
    if (!seen.has(v)) seen.set(v, `id${seen.size}`);
    return seen.get(v);
  });
}
