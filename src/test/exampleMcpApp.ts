import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './freePort';
import { fileURLToPath } from 'node:url';

/** The official MCP Apps example server from npm (`@modelcontextprotocol/server-basic-vanillajs`): tool `get-time` with the view `ui://get-time/mcp-app.html`. */
export const EXAMPLE_APP_SERVER = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js', import.meta.url));


/** Starts the example server on a free loopback port; `stop` ends it. */
export async function startExampleAppServer(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [EXAMPLE_APP_SERVER], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let said = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The example MCP App server did not start in 15 s: ${said}`)), 15_000);
    const hear = (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes('listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', hear);
    child.stderr!.on('data', hear);
    child.once('exit', (code) => reject(new Error(`The example MCP App server exited (${code}): ${said}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
