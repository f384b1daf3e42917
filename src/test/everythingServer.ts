import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { freePort } from './freePort';
import { dirname, join } from 'node:path';

/** A running `@modelcontextprotocol/server-everything` (Streamable HTTP) on 127.0.0.1. */
export interface EverythingServer {
  /** Its MCP endpoint, e.g. `http://127.0.0.1:6204/mcp`. */
  url: string;
  port: number;
  stop(): Promise<void>;
}


/**
 * Starts the official "everything" MCP server from npm (`node dist/index.js
 * streamableHttp`, `PORT`), resolves once it listens; `stop()` ends it.
 * @example
 * const everything = await startEverythingServer();
 * // … connect to everything.url …
 * await everything.stop();
 */
export async function startEverythingServer(port?: number): Promise<EverythingServer> {
  const require = createRequire(import.meta.url);
  const entry = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
  const listenOn = port ?? (await freePort());
  const child: ChildProcess = spawn(process.execPath, [entry, 'streamableHttp'], {
    env: { ...process.env, PORT: String(listenOn) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server-everything did not start on ${listenOn} within 15 s:\n${log}`)), 15_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (/listening on port/i.test(log)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything exited (${code}) before listening:\n${log}`));
    });
  });
  child.stderr!.resume();
  return {
    url: `http://127.0.0.1:${listenOn}/mcp`,
    port: listenOn,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
