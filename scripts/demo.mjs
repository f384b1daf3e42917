// `npm run demo`: install what is missing, then serve the demo on one origin,
// http://127.0.0.1:5173 (PORT overrides): the page (Vite) and the reference
// workspace server (the kit's createWorkspaceServer: /v1/*, /mcp) side by side.
// The offline model answers unless ANTHROPIC_API_KEY is set (ANTHROPIC_BASE_URL is honoured).
// DEMO_STATE names the folder for the demo's databases (default .demo-state/).
import { ensureDependencies, root } from './setup.mjs';

ensureDependencies();
const { createServer } = await import('vite');
const { getRequestListener } = await import('@hono/node-server');

const port = Number(process.env.PORT ?? 5173);

/** Mounts the reference workspace server under Vite's dev server: one origin, no proxy. */
function referenceServer() {
  let reference = null;
  return {
    name: 'chatsurface-reference-server',
    async configureServer(server) {
      const mod = await server.ssrLoadModule('/reference/workspace/server.ts');
      reference = await mod.createReferenceServer(process.env.DEMO_STATE ? { stateDir: process.env.DEMO_STATE } : {});
      const listener = getRequestListener(reference.server.fetch);
      server.middlewares.use((req, res, next) => {
        if (req.url && (req.url.startsWith('/v1/') || req.url.startsWith('/app/') || req.url === '/mcp' || req.url.startsWith('/mcp?'))) listener(req, res);
        else next();
      });
      server.httpServer?.once('close', () => void reference?.close());
    },
  };
}

const vite = await createServer({
  root,
  configFile: `${root}vite.config.ts`,
  plugins: [referenceServer()],
  logLevel: process.env.DEMO_QUIET ? 'warn' : 'info',
  server: { host: '127.0.0.1', port, strictPort: true },
});
await vite.listen();
const model = process.env.ANTHROPIC_API_KEY ? 'Claude (ANTHROPIC_API_KEY is set)' : 'the offline model (no key needed)';
console.log(`ChatSurface demo: http://127.0.0.1:${port}/  — answering with ${model}`);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    await vite.close();
    process.exit(0);
  });
}
