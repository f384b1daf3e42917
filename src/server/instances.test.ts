import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../runtime/capability';
import { textResult } from '../runtime/results';
import type { ThreadEvent } from '../runtime/events';
import type { ModelDriver } from '../runtime/model';
import { describePostgres, testPostgres, type TestDatabase } from '../test/postgres';
import { pathOf, routes } from '../workspace/protocol';
import { createEventStreamReader } from '../workspace/protocol/eventStreamReader';
import { bearerKeys } from './authenticators';
import { createWorkspaceServer, type WorkspaceServer } from './createWorkspaceServer';

/**
 * Two server instances on one real PostgreSQL, as behind a load balancer:
 * what one writes, a client of the other sees; a job one runs, the other
 * reads and cancels; when one is killed, the other closes its work; one
 * Idempotency-Key and one budget hold across both.
 */
const pg = await testPostgres();
const KEY = 'instances-key-0123456789';
const AUTH = { authorization: `Bearer ${KEY}` };
const LEASE_MS = 600;

/** A scripted model: "talk N at MS" streams N words; "build report N at MS" calls the slow capability. */
const SCRIPT = `
  async *respond({ messages, signal }) {
    const last = messages.at(-1);
    if (last.role === 'tool') { yield { type: 'text', text: 'Report done.' }; return; }
    const talk = /talk (\\d+) at (\\d+)/.exec(last.text);
    if (talk) {
      for (let i = 0; i < Number(talk[1]) && !signal.aborted; i++) {
        await new Promise((resolve) => setTimeout(resolve, Number(talk[2])));
        yield { type: 'text', text: 'word' + i + ' ' };
      }
      return;
    }
    const m = /build report (\\d+) at (\\d+)/.exec(last.text);
    if (m) { yield { type: 'invoke', capability: 'report.build', args: { sections: Number(m[1]), ms: Number(m[2]) } }; return; }
    yield { type: 'text', text: 'Say "talk" or "build report".' };
  }`;
const driver = { info: { id: 'scripted', label: 'Scripted model' }, ...(new Function(`return {${SCRIPT}};`)() as object) } as ModelDriver;

let runs = 0;
const report = defineCapability({
  name: 'report.build',
  title: 'Build report',
  description: 'Builds a report section by section.',
  input: z.object({ sections: z.number().int().min(1).max(500), ms: z.number().int().min(0).max(2000) }),
  handler: async ({ sections, ms }, ctx) => {
    runs++;
    for (let i = 1; i <= sections; i++) {
      await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, ms);
        ctx.signal.addEventListener('abort', () => (clearTimeout(timer), reject(ctx.signal.reason)), { once: true });
      });
      ctx.progress(i, sections, `Section ${i}`);
    }
    return textResult(`Built ${sections} sections.`, { sections });
  },
});

const servers: WorkspaceServer[] = [];
const children = new Set<ChildProcess>();
const streams: AbortController[] = [];
let dir = '';
let bundle = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chatsurface-instances-'));
  bundle = join(dir, 'instance.mjs');
  const require = createRequire(import.meta.url);
  const externals: Record<string, string> = { pg: require.resolve('pg'), 'better-sqlite3': require.resolve('better-sqlite3') };
  await build({
    stdin: {
      contents: `
        import { z } from 'zod';
        import { createWorkspaceServer } from './createWorkspaceServer';
        import { bearerKeys } from './authenticators';
        import { defineCapability } from '../runtime/capability';
        import { textResult } from '../runtime/results';
        const report = defineCapability({
          name: 'report.build', title: 'Build report', description: 'Builds a report section by section.',
          input: z.object({ sections: z.number().int().min(1).max(500), ms: z.number().int().min(0).max(2000) }),
          handler: async ({ sections, ms }, ctx) => {
            for (let i = 1; i <= sections; i++) { await new Promise((r) => setTimeout(r, ms)); ctx.progress(i, sections, 'Section ' + i); }
            return textResult('Built ' + sections + ' sections.', { sections });
          },
        });
        const driver = { info: { id: 'scripted', label: 'Scripted model' }, ${SCRIPT} };
        const server = await createWorkspaceServer({
          capabilities: [report], driver, alignment: 'loose', database: process.env.DB, databaseSchema: process.env.SCHEMA,
          instance: { leaseMs: ${LEASE_MS} }, authenticate: bearerKeys([{ id: 'ada', key: '${KEY}' }]), heartbeatMs: 200,
        });
        const { url } = await server.listen();
        console.log('LISTENING ' + url);
      `,
      resolveDir: new URL('.', import.meta.url).pathname,
      loader: 'ts',
      sourcefile: 'instance-entry.ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: bundle,
    logLevel: 'error',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    plugins: [
      {
        name: 'node-modules-in-place',
        setup: (b) => b.onResolve({ filter: /^(pg|better-sqlite3|pg-native)$/ }, (args) => ({ path: externals[args.path] ?? args.path, external: true })),
      },
    ],
  });
}, 60_000);

afterEach(async () => {
  for (const stream of streams.splice(0)) stream.abort();
  for (const child of children) child.kill('SIGKILL');
  children.clear();
  await Promise.all(servers.splice(0).map((s) => s.close()));
  runs = 0;
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function start(target: TestDatabase, budget?: number) {
  const server = await createWorkspaceServer({
    capabilities: [report],
    driver,
    alignment: 'loose',
    database: target.url,
    databaseSchema: target.schema,
    instance: { leaseMs: LEASE_MS },
    authenticate: bearerKeys([{ id: 'ada', key: KEY, ...(budget !== undefined ? { budget } : {}) }]),
    heartbeatMs: 200,
  });
  servers.push(server);
  const { url } = await server.listen();
  return { server, url };
}

/** An instance in its own process, to be killed with SIGKILL. */
function startChild(target: TestDatabase): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [bundle], { env: { ...process.env, DB: target.url, SCHEMA: target.schema }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  return new Promise((resolve, reject) => {
    let err = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /LISTENING (\S+)/.exec(String(chunk));
      if (match) resolve({ url: match[1]!, child });
    });
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk));
    child.once('exit', (code) => reject(new Error(`instance exited (${code}) before listening: ${err}`)));
  });
}

/** Every event the server sends on a thread's stream, as sent (duplicates and gaps would show). */
function follow(url: string, threadId: string, lastEventId = 0) {
  const events: ThreadEvent[] = [];
  const controller = new AbortController();
  streams.push(controller);
  const opened = (async () => {
    for (;;) {
      const response = await fetch(`${url}${pathOf(routes.events.path, { threadId })}`, {
        headers: { ...AUTH, accept: 'text/event-stream', 'last-event-id': String(lastEventId) },
        signal: controller.signal,
      });
      // A thread nobody wrote yet has no stream until its first event (204 to a stream request): look again.
      if (response.status === 204 || response.status === 404) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        continue;
      }
      const parse = createEventStreamReader({
        onEvent: (message) => {
          if (message.data) events.push(JSON.parse(message.data) as ThreadEvent);
        },
      });
      void (async () => {
        const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          parse(value);
        }
      })().catch(() => undefined);
      return;
    }
  })().catch(() => undefined);
  return { events, opened, seqs: () => events.map((e) => e.seq) };
}

const post = (url: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}${path}`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

const contiguous = (seqs: number[]) => seqs.map((_, i) => i + 1);

describePostgres(pg, () => {
  it('a turn sent to instance A streams to a client of instance B in order, each event once, and B resumes with Last-Event-ID after A wrote more', async () => {
    const target = await pg.createDatabase();
    const a = await start(target);
    const b = await start(target);
    // The thread exists (written on A) before B's client attaches.
    expect((await post(a.url, pathOf(routes.send.path, { threadId: 't1' }), { text: 'hello' })).status).toBe(200);
    const onB = follow(b.url, 't1');
    await onB.opened;
    await expect.poll(() => onB.events.length, { timeout: 5_000 }).toBeGreaterThan(0);

    const sent = post(a.url, pathOf(routes.send.path, { threadId: 't1' }), { text: 'talk 30 at 10' });
    // Words arrive on B while A is still talking.
    await expect.poll(() => onB.events.filter((e) => e.type === 'message.delta').length, { timeout: 5_000 }).toBeGreaterThan(3);
    // The first turn has ended; the second has not yet.
    expect(onB.events.filter((e) => e.type === 'turn.done')).toHaveLength(1);
    expect((await sent).status).toBe(200);

    const log = await a.server.host.events.read({ user: 'ada', space: 'default', id: 't1' });
    await expect.poll(() => onB.events.length, { timeout: 5_000 }).toBe(log.length);
    expect(onB.seqs()).toEqual(contiguous(onB.seqs()));
    expect(onB.events).toEqual(log);

    // B's client goes away; A writes more; B resumes from the last id it had.
    const had = onB.events.length;
    streams.splice(0).forEach((s) => s.abort());
    expect((await post(a.url, pathOf(routes.send.path, { threadId: 't1' }), { text: 'talk 5 at 1' })).status).toBe(200);
    const resumed = follow(b.url, 't1', had);
    const full = await a.server.host.events.read({ user: 'ada', space: 'default', id: 't1' });
    await expect.poll(() => resumed.events.length, { timeout: 5_000 }).toBe(full.length - had);
    expect(resumed.seqs()).toEqual(full.slice(had).map((e) => e.seq));
  }, 30_000);

  it('a turn sent to B while A runs one on the same thread waits for it, then goes on: one log, no seq written twice', async () => {
    const target = await pg.createDatabase();
    const a = await start(target);
    const b = await start(target);
    const first = post(a.url, pathOf(routes.send.path, { threadId: 't2' }), { text: 'talk 20 at 10' });
    await expect.poll(async () => (await a.server.host.events.info({ user: 'ada', space: 'default', id: 't2' }))?.lastSeq ?? 0).toBeGreaterThan(3);
    const second = post(b.url, pathOf(routes.send.path, { threadId: 't2' }), { text: 'talk 3 at 1' });
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    const log = await b.server.host.events.read({ user: 'ada', space: 'default', id: 't2' });
    expect(log.map((e) => e.seq)).toEqual(contiguous(log.map((e) => e.seq)));
    const turns = log.filter((e) => e.type === 'turn.done');
    expect(turns).toHaveLength(2);
    // B's turn started after A's ended, and saw it: both replies are in the thread, in order.
    const texts = log.flatMap((e) => (e.type === 'message.created' && e.role === 'user' ? [e.text] : []));
    expect(texts).toEqual(['talk 20 at 10', 'talk 3 at 1']);
  }, 30_000);

  it('a job started on A is readable and cancellable through B', async () => {
    const target = await pg.createDatabase();
    const a = await start(target);
    const b = await start(target);
    const onB = follow(b.url, 't3');
    const turn = post(a.url, pathOf(routes.send.path, { threadId: 't3' }), { text: 'build report 200 at 50' });
    await onB.opened;
    await expect.poll(() => onB.events.some((e) => e.type === 'capability.progress'), { timeout: 10_000 }).toBe(true);
    const started = onB.events.find((e) => e.type === 'capability.started') as Extract<ThreadEvent, { type: 'capability.started' }>;
    const job = await fetch(`${b.url}/v1/jobs/${started.invocation_id}`, { headers: AUTH });
    expect(job.status).toBe(200);
    expect(((await job.json()) as { status: string }).status).toBe('running');

    const cancel = await post(b.url, pathOf(routes.cancel.path, { id: started.invocation_id }), { threadId: 't3' });
    expect(cancel.status).toBe(202);
    await expect.poll(() => onB.events.some((e) => e.type === 'capability.error' && e.invocation_id === started.invocation_id), { timeout: 5_000 }).toBe(true);
    await turn;
    const ended = (await (await fetch(`${b.url}/v1/jobs/${started.invocation_id}`, { headers: AUTH })).json()) as { error?: { code: string } };
    expect(ended.error?.code).toBe('cancelled');
  }, 30_000);

  it('when A is killed mid-job, B marks the job and the turn interrupted within the lease, and its client sees it', async () => {
    const target = await pg.createDatabase();
    const a = await startChild(target);
    const b = await start(target);
    void post(a.url, pathOf(routes.send.path, { threadId: 't4' }), { text: 'build report 400 at 50' }).catch(() => undefined);
    const onB = follow(b.url, 't4');
    await onB.opened;
    await expect.poll(() => onB.events.some((e) => e.type === 'capability.progress'), { timeout: 10_000 }).toBe(true);
    const started = onB.events.find((e) => e.type === 'capability.started') as Extract<ThreadEvent, { type: 'capability.started' }>;

    const killedAt = Date.now();
    await new Promise<void>((resolve) => {
      a.child.once('exit', () => resolve());
      a.child.kill('SIGKILL');
    });
    await expect
      .poll(() => onB.events.some((e) => e.type === 'turn.done' && e.outcome === 'interrupted'), { timeout: LEASE_MS * 6, interval: 20 })
      .toBe(true);
    const noticed = Date.now() - killedAt;
    // Within the lease, plus one reap interval and the time to write it.
    expect(noticed).toBeLessThan(LEASE_MS * 3);
    expect(onB.events.find((e) => e.type === 'capability.error' && e.invocation_id === started.invocation_id)).toMatchObject({ error: { code: 'interrupted' } });
    expect(onB.seqs()).toEqual(contiguous(onB.seqs()));
    await expect
      .poll(async () => ((await (await fetch(`${b.url}/v1/jobs/${started.invocation_id}`, { headers: AUTH })).json()) as { error?: { code: string } }).error?.code, {
        timeout: 5_000,
      })
      .toBe('interrupted');
    // The thread goes on, on B.
    expect((await post(b.url, pathOf(routes.send.path, { threadId: 't4' }), { text: 'talk 2 at 1' })).status).toBe(200);
    expect(onB.events.at(-1)).toMatchObject({ type: 'turn.done', outcome: 'answered' });
  }, 30_000);

  it('20 concurrent retries with one Idempotency-Key, split across A and B, run once and charge once', async () => {
    const target = await pg.createDatabase();
    const a = await start(target, 2);
    const b = await start(target, 2);
    const call = (url: string, key: string) => post(url, '/v1/capabilities/report.build', { sections: 3, ms: 60 }, { 'idempotency-key': key });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => call(i % 2 ? b.url : a.url, 'same-key')));
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    const bodies = await Promise.all(answers.map((r) => r.json()));
    expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBe(1);
    expect(runs).toBe(1);
    // Charged once: the budget of 2 has room for exactly one more call, on either instance.
    expect((await call(b.url, 'second')).status).toBe(200);
    const over = await call(a.url, 'third');
    expect(over.status).toBe(402);
    expect(runs).toBe(2);
  }, 30_000);

  it('one budget across instances: 12 concurrent calls split across A and B, a budget of 5: exactly 5 run', async () => {
    const target = await pg.createDatabase();
    const a = await start(target, 5);
    const b = await start(target, 5);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => post(i % 2 ? b.url : a.url, '/v1/capabilities/report.build', { sections: 1, ms: 20 }, { 'idempotency-key': `k${i}` })),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 402)).toHaveLength(7);
    expect(runs).toBe(5);
  }, 30_000);
});
