// `npm run demo`: install what is missing, then serve the demo on one origin,
// http://127.0.0.1:5173 (PORT overrides): the page (Vite) and the reference
// workspace server (the kit's createWorkspaceServer: /v1/*, /mcp) side by side.
// The offline model answers unless OPENAI_BASE_URL is set (an OpenAI-compatible server: llama.cpp's server, Ollama,
// vLLM, OpenAI; OPENAI_MODEL, OPENAI_API_KEY when it needs one) or ANTHROPIC_API_KEY is (ANTHROPIC_BASE_URL is honoured).
// DEMO_STATE names the folder for the demo's databases and exports (default ~/.local/state/chatsurface-demo,
// outside the checkout). Each browser is its own anonymous user: a page load without a live session gets a
// session cookie. Nothing is served but the app: the kit's and the app's routes, the page and the modules it
// loads (servesApp); every other path of the checkout answers 404. MCP_AUTH_ISSUER (an OAuth authorization server's
// issuer URL; MCP_AUTH_SCOPES, MCP_AUTH_RESOURCE) lets MCP clients sign in there for /mcp (README, "MCP clients with OAuth").
import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { ensureDependencies, root } from './setup.mjs';

ensureDependencies();
const { createServer } = await import('vite');
const { getRequestListener } = await import('@hono/node-server');

const port = Number(process.env.PORT ?? 5173);
/**
 * DEMO_VITE_CACHE (a folder name under node_modules, `.vite-…`): where this server pre-bundles the
 * page's dependencies, when several demos run at once (the tests): two dev servers re-bundling into
 * one folder leave the other's page asking for files that are gone.
 */
const viteCache = process.env.DEMO_VITE_CACHE;
if (viteCache !== undefined && !/^\.vite-[\w-]+$/.test(viteCache)) throw new Error(`DEMO_VITE_CACHE must be a folder name like .vite-mine, not ${JSON.stringify(viteCache)}.`);

/** The kit's and the app's routes: the reference server answers them (the MCP door's OAuth metadata too, with MCP_AUTH_ISSUER). */
const isServerRoute = (url) =>
  url.startsWith('/v1/') || url.startsWith('/app/') || url === '/mcp' || url.startsWith('/mcp?') || url.split('?')[0].startsWith('/.well-known/oauth-protected-resource');

/**
 * What the demo's page needs from the dev server, and nothing else: the page, Vite's client, the
 * pre-bundled dependencies, the kit's browser source and the app's own modules. Not the server's
 * source, the tests, the app's data, scripts and skills, node_modules or anything else in the checkout.
 */
const SERVED = [
  /^\/(index\.html)?$/,
  /^\/@(vite\/(client|env)|react-refresh)$/,
  /^\/@id\/[\w@./-]+$/,
  /^\/node_modules\/(\.vite(-[\w-]+)?\/deps|vite\/dist\/client)\/[\w@.+-]+$/,
  /^\/src\/(?!server\/|runtime\/node\/|test\/)[\w./-]+\.(tsx?|css)$/,
  /^\/reference\/app\/[\w.-]+\.(tsx?|css)$/,
  ...linkedModules(),
];

/**
 * A checkout whose node_modules is a link to another's (a git worktree sharing one install): Vite
 * serves its client and pre-bundled dependencies from the link's target, under `/@fs/`. The same
 * two folders, and nothing else of it.
 */
function linkedModules() {
  const link = `${root}node_modules`;
  if (!existsSync(link) || !lstatSync(link).isSymbolicLink()) return [];
  const target = realpathSync(link).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return [new RegExp(`^/@fs${target}/(\\.vite(-[\\w-]+)?/deps|vite/dist/client)/[\\w@.+-]+$`)];
}
function servesApp(url) {
  const path = decodeURIComponent(url.split('?')[0]);
  if (path.includes('..') || /\.(test|spec|stories)\.tsx?$/.test(path)) return false;
  return SERVED.some((pattern) => pattern.test(path));
}

/** A page load (a navigation, `/` or an `.html` page), not an API call or one of Vite's modules. */
function isPageLoad(req) {
  if (req.method !== 'GET' || !req.url || isServerRoute(req.url)) return false;
  const path = req.url.split('?')[0];
  return path === '/' || path.endsWith('.html') || (req.headers['sec-fetch-dest'] === 'document' && !path.startsWith('/@'));
}

/** Mounts the reference workspace server under Vite's dev server: one origin, no proxy. */
function referenceServer() {
  let reference = null;
  return {
    name: 'chatsurface-reference-server',
    async configureServer(server) {
      const mod = await server.ssrLoadModule('/reference/workspace/server.ts');
      // DEMO_ENRICH_DELAY_MS: how long enrichment takes per record (400 ms by default); the
      // end-to-end tests slow it down so a busy machine still sees it running.
      const enrichDelayMs = Number(process.env.DEMO_ENRICH_DELAY_MS);
      // DEMO_GUESTS_PER_ADDRESS: new guests one client address may make per 10 minutes (30 by default;
      // the end-to-end tests open many browsers from 127.0.0.1).
      const perAddress = Number(process.env.DEMO_GUESTS_PER_ADDRESS);
      reference = await mod.createReferenceServer({
        ...(process.env.DEMO_STATE ? { stateDir: process.env.DEMO_STATE } : {}),
        ...(Number.isInteger(perAddress) && perAddress > 0 ? { guests: { perAddress, total: Math.max(2_000, perAddress) } } : {}),
        ...(Number.isFinite(enrichDelayMs) && enrichDelayMs >= 0 ? { enrichDelayMs } : {}),
      });
      const listener = getRequestListener(reference.server.fetch);
      const scheme = server.config.server.https ? 'https' : 'http';
      server.middlewares.use((req, res, next) => {
        if (req.url && isServerRoute(req.url)) return listener(req, res);
        if (!req.url || !['GET', 'HEAD'].includes(req.method ?? '') || !servesApp(req.url)) {
          res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: this demo serves its page and the kit\'s routes, nothing else.\n');
          return;
        }
        if (!isPageLoad(req)) return next();
        // Sign this browser in (a new anonymous user) unless its cookie names a live session.
        const url = new URL(req.url, `${scheme}://${req.headers.host ?? `127.0.0.1:${port}`}`);
        const request = new Request(url, { headers: req.headers.cookie ? { cookie: req.headers.cookie } : {} });
        reference.issueSessionCookie(request, req.socket.remoteAddress ?? 'unknown').then(
          (setCookie) => {
            if (setCookie) res.appendHeader('set-cookie', setCookie);
            next();
          },
          (error) => {
            if (error?.name !== 'GuestLimitError') return next(error);
            res.writeHead(429, { 'content-type': 'text/plain; charset=utf-8', 'retry-after': String(error.retryAfterSeconds) }).end(`${error.message}\n`);
          },
        );
      });
      server.httpServer?.once('close', () => void reference?.close());
    },
  };
}

const vite = await createServer({
  root,
  configFile: `${root}vite.config.ts`,
  plugins: [referenceServer()],
  ...(viteCache ? { cacheDir: `${root}node_modules/${viteCache}` } : {}),
  logLevel: process.env.DEMO_QUIET ? 'warn' : 'info',
  // cors: false, so Vite adds no Access-Control-Allow-Origin of its own (its default allows any localhost origin)
  // to /v1/* and /mcp: the workspace server alone decides which origins may call it.
  server: { host: '127.0.0.1', port, strictPort: true, cors: false },
});
await vite.listen();
const model = process.env.OPENAI_BASE_URL
  ? `${process.env.OPENAI_MODEL || 'the first model it lists'} at ${process.env.OPENAI_BASE_URL} (OPENAI_BASE_URL is set)`
  : process.env.ANTHROPIC_API_KEY ? 'Claude (ANTHROPIC_API_KEY is set)' : 'the offline model (no key needed)';
console.log(`ChatSurface demo: http://127.0.0.1:${port}/  — answering with ${model}`);
if (process.env.MCP_AUTH_ISSUER) console.log(`MCP clients at http://127.0.0.1:${port}/mcp sign in at ${process.env.MCP_AUTH_ISSUER} (MCP_AUTH_ISSUER is set).`);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    await vite.close();
    process.exit(0);
  });
}
