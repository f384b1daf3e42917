import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { createCorpusServer } from './corpusServer';

/**
 * Serves the corpus MCP server over Streamable HTTP on 127.0.0.1, at `/mcp`,
 * through the SDK's per-request handler: MCP 2026-07-28 (no session) and,
 * on the same URL, 2025-era clients (stateless).
 * @example
 * const corpus = await serveCorpus();
 * // → { url: 'http://127.0.0.1:43121/mcp', close }
 */
export async function serveCorpus({ port = 0 }: { port?: number } = {}): Promise<{ url: string; close(): Promise<void> }> {
  const mcp = createMcpHandler(() => createCorpusServer());
  const handle = toNodeHandler(mcp);
  const http: Server = createServer(async (req, res) => {
    if (!req.url?.startsWith('/mcp')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'not_found', message: 'The corpus server answers at /mcp.' } }));
      return;
    }
    await handle(req, res);
  });
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  const { port: bound } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/mcp`,
    close: async () => {
      await mcp.close();
      await new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      });
    },
  };
}
