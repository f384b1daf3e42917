import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from './freePort';

/**
 * The official MCP Apps example servers from npm (2.0.3), as a user would run their own: each
 * started as its package's `dist/index.js` (Streamable HTTP at `/mcp` on `PORT`, no `--stdio`).
 * - `basic`: tool `get-time` (view `ui://get-time/mcp-app.html`; its "Get Server Time" button calls `get-time` again).
 * - `system-monitor`: tool `get-system-info` (view `ui://system-monitor/mcp-app.html`), which polls the
 *   app-only tool `poll-system-stats` (`visibility: ["app"]`) every 2 s once it has the result.
 * - `budget-allocator`: tool `get-budget-data` (view `ui://budget-allocator/mcp-app.html`).
 * None of their tools says `readOnlyHint`.
 */
export const OFFICIAL_APP_SERVERS = {
  basic: '@modelcontextprotocol/server-basic-vanillajs',
  'system-monitor': '@modelcontextprotocol/server-system-monitor',
  'budget-allocator': '@modelcontextprotocol/server-budget-allocator',
} as const;

export type OfficialAppServer = keyof typeof OFFICIAL_APP_SERVERS;

export interface StartedAppServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** Starts one on `port` (a free loopback port when not given); `stop` ends it. */
export async function startOfficialAppServer(name: OfficialAppServer, port?: number): Promise<StartedAppServer> {
  const at = port ?? (await freePort());
  const entry = fileURLToPath(new URL(`../../node_modules/${OFFICIAL_APP_SERVERS[name]}/dist/index.js`, import.meta.url));
  const child: ChildProcess = spawn(process.execPath, [entry], { env: { ...process.env, PORT: String(at) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let said = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The ${name} MCP App server did not start in 20 s: ${said}`)), 20_000);
    const hear = (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes('listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', hear);
    child.stderr!.on('data', hear);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The ${name} MCP App server exited (${code}): ${said}`));
    });
  });
  return {
    url: `http://127.0.0.1:${at}/mcp`,
    port: at,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
