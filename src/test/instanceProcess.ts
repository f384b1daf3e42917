// Workspace server instances in processes of their own (to be killed, or to show they live on), and
// SSE clients that follow a thread as a browser's EventSource does: when the stream ends or breaks
// they come back with Last-Event-ID. Test support only.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { ThreadEvent } from '../runtime/events';
import { pathOf, routes } from '../workspace/protocol';
import { createEventStreamReader } from '../workspace/protocol/eventStreamReader';

export const INSTANCE_KEY = 'instance-key-0123456789';
export const INSTANCE_AUTH = { authorization: `Bearer ${INSTANCE_KEY}` };

/** A scripted model: "talk N at MS" streams N words; "build report N at MS" calls the slow capability. */
export const INSTANCE_SCRIPT = `
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

/** Bundles one instance's entry into `dir` (a server with the scripted model and a slow `report.build`); returns the file. */
export async function bundleInstance(dir: string, leaseMs: number): Promise<string> {
  const bundle = join(dir, 'instance.mjs');
  const require = createRequire(import.meta.url);
  const externals: Record<string, string> = { pg: require.resolve('pg'), 'better-sqlite3': require.resolve('better-sqlite3') };
  await build({
    stdin: {
      contents: `
        import { z } from 'zod';
        import { createWorkspaceServer } from '../server/createWorkspaceServer';
        import { bearerKeys } from '../server/authenticators';
        import { defineCapability } from '../runtime/capability';
        import { textResult } from '../runtime/results';
        const report = defineCapability({
          name: 'report.build', title: 'Build report', description: 'Builds a report section by section.',
          input: z.object({ sections: z.number().int().min(1).max(5000), ms: z.number().int().min(0).max(2000) }),
          handler: async ({ sections, ms }, ctx) => {
            for (let i = 1; i <= sections; i++) {
              await new Promise((resolve, reject) => {
                const timer = setTimeout(resolve, ms);
                ctx.signal.addEventListener('abort', () => (clearTimeout(timer), reject(ctx.signal.reason)), { once: true });
              });
              ctx.progress(i, sections, 'Section ' + i);
            }
            return textResult('Built ' + sections + ' sections.', { sections });
          },
        });
        const driver = { info: { id: 'scripted', label: 'Scripted model' }, ${INSTANCE_SCRIPT} };
        const server = await createWorkspaceServer({
          capabilities: [report], driver, alignment: 'loose', database: process.env.DB, ...(process.env.SCHEMA ? { databaseSchema: process.env.SCHEMA } : {}),
          instance: { leaseMs: ${leaseMs} }, authenticate: bearerKeys([{ id: 'ada', key: '${INSTANCE_KEY}' }]), heartbeatMs: 200,
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
  return bundle;
}

export interface InstanceProcess {
  url: string;
  child: ChildProcess;
  /** Everything it wrote to stderr so far. */
  errors(): string;
}

/** Starts the bundled instance on `database` in a process of its own. */
export function startInstance(bundle: string, database: string, schema?: string): Promise<InstanceProcess> {
  const child = spawn(process.execPath, [bundle], { env: { ...process.env, DB: database, ...(schema ? { SCHEMA: schema } : {}) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /LISTENING (\S+)/.exec(String(chunk));
      if (match) resolve({ url: match[1]!, child, errors: () => err });
    });
    child.once('exit', (code) => reject(new Error(`instance exited (${code}) before listening: ${err}`)));
  });
}

export interface Follower {
  /** Every event received, as received (duplicates and gaps would show). */
  events: ThreadEvent[];
  /** How many times the stream was opened. */
  connections(): number;
  stop(): void;
}

/** A client of `url` following a thread from the start, coming back with Last-Event-ID whenever its stream ends or fails. */
export function followThread(url: string, threadId: string, headers: Record<string, string> = INSTANCE_AUTH): Follower {
  const events: ThreadEvent[] = [];
  const controller = new AbortController();
  let opened = 0;
  void (async () => {
    while (!controller.signal.aborted) {
      try {
        const last = events.at(-1)?.seq ?? 0;
        const response = await fetch(`${url}${pathOf(routes.events.path, { threadId })}`, {
          headers: { ...headers, accept: 'text/event-stream', 'last-event-id': String(last) },
          signal: controller.signal,
        });
        if (response.status !== 200 || !response.body) {
          await response.body?.cancel();
          await new Promise((resolve) => setTimeout(resolve, 200));
          continue;
        }
        opened++;
        const parse = createEventStreamReader({
          onEvent: (message) => {
            if (message.data) events.push(JSON.parse(message.data) as ThreadEvent);
          },
        });
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          parse(value);
        }
      } catch {
        // A broken stream: come back, as EventSource does.
      }
      if (!controller.signal.aborted) await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  return { events, connections: () => opened, stop: () => controller.abort() };
}
