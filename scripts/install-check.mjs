// The browser-only install, as a host meets it (run by scripts/test.mjs after the library build):
// 1. the packed tarball installed into a fresh app with only react and react-dom pulls no native
//    module (no `.node` file, no `binding.gyp`), none of the optional peers, no `@ag-ui/*` package
//    and no rxjs (AG-UI is chatsurface/ag-ui, its packages optional peers);
// 2. that app builds with Vite, importing chatsurface, chatsurface/runtime, chatsurface/ag-ui (without its peers) and the styles;
// 3. a Next.js App Router page whose Server Component imports the kit builds ('use client' kept in dist);
// 4. the published types: attw and publint on the tarball, and a consumer type-check of every entry
//    under nodenext and bundler resolution on TypeScript 5 and 7, without skipLibCheck (scripts/types-check.mjs).
// 5. the docs run: docs/server.md's quick start, installed as its install lines say, is started
//    with node and answers a turn through its Vite dev proxy, to a client and to its page in
//    Chromium (scripts/docs-check.mjs; the docs'
//    code blocks are type-checked with step 4).
// It prints the install's size: every package npm installed (scoped ones included) and their bytes.
// Offline-friendly: npm installs from its cache first; Next.js is this repository's devDependency.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runServerQuickStart } from './docs-check.mjs';
import { checkTypes } from './types-check.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const optionalPeers = Object.keys(pkg.peerDependenciesMeta ?? {}).filter((name) => pkg.peerDependenciesMeta[name].optional);
const problems = [];
const sh = (command, args, cwd) => execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
const timed = (label, work) => {
  const started = Date.now();
  const out = work();
  console.log(`  ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return out;
};

if (!existsSync(join(root, 'dist/index.js'))) throw new Error('dist/ is missing: run `npm run build` first.');
const work = mkdtempSync(join(tmpdir(), 'chatsurface-install-'));
try {
  const tarball = join(work, timed('npm pack', () => sh('npm', ['pack', '--silent', '--pack-destination', work], root).trim().split('\n').pop()));

  // 1. A fresh Vite-like app: react, react-dom and the kit, nothing else.
  const app = join(work, 'app');
  mkdirSync(join(app, 'src'), { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'host-app', private: true, type: 'module', dependencies: { react: pkg.devDependencies.react, 'react-dom': pkg.devDependencies['react-dom'] } }, null, 2));
  timed('npm install react react-dom <tarball>', () => sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], app));
  const native = [];
  let packages = 0;
  let bytes = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        // A package is a folder with a package.json right under a node_modules, or under a node_modules/@scope.
        const parent = basename(dir);
        const underNodeModules = parent === 'node_modules' || (parent.startsWith('@') && basename(dirname(dir)) === 'node_modules');
        if (underNodeModules && !entry.name.startsWith('@') && existsSync(join(path, 'package.json'))) packages++;
        walk(path);
      } else if (entry.isFile()) {
        bytes += statSync(path).size;
        if (entry.name.endsWith('.node') || entry.name === 'binding.gyp') native.push(path.slice(app.length + 1));
      }
    }
  };
  walk(join(app, 'node_modules'));
  console.log(`  installed: ${packages} packages, ${(bytes / 1e6).toFixed(1)} MB`);
  // The count agrees with npm's own record of what it installed (node_modules/.package-lock.json).
  const recorded = Object.keys(JSON.parse(readFileSync(join(app, 'node_modules/.package-lock.json'), 'utf8')).packages).filter((key) => key.startsWith('node_modules/')).length;
  if (recorded !== packages) problems.push(`the install counted ${packages} packages but npm recorded ${recorded}`);
  // The README prints this figure: say so when it has drifted (not a failure: a dependency's patch moves it).
  const stated = /(\d+) packages\s+and ([\d.]+) MB with React/.exec(readFileSync(join(root, 'README.md'), 'utf8'));
  if (!stated) console.log('  note: the README no longer states the install size ("N packages and X MB with React")');
  else if (Number(stated[1]) !== packages || Math.abs(Number(stated[2]) - bytes / 1e6) >= 1) {
    console.log(`  note: the README states ${stated[1]} packages and ${stated[2]} MB; update it to the figure above`);
  }
  if (native.length) problems.push(`the install pulled native modules: ${native.slice(0, 5).join(', ')}`);
  for (const name of optionalPeers) if (existsSync(join(app, 'node_modules', name))) problems.push(`the install pulled the optional peer ${name}`);
  // AG-UI and what it brings (rxjs): none of it, under any name, at any depth.
  const agUi = [];
  const findAgUi = (dir) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const path = join(dir, entry.name);
      if (entry.name === '@ag-ui' || entry.name === 'rxjs') agUi.push(path.slice(app.length + 1));
      else if (entry.name.startsWith('@')) findAgUi(path);
      else findAgUi(join(path, 'node_modules'));
    }
  };
  findAgUi(join(app, 'node_modules'));
  if (agUi.length) problems.push(`the install pulled AG-UI packages or rxjs: ${agUi.slice(0, 5).join(', ')}`);

  // 2. The app builds with Vite (this repository's copy): the browser entries resolve without any peer.
  writeFileSync(join(app, 'index.html'), '<!doctype html><html><body><div id="root"></div><script type="module" src="/src/main.js"></script></body></html>');
  writeFileSync(
    join(app, 'src/main.js'),
    [
      "import { createElement } from 'react';",
      "import { createRoot } from 'react-dom/client';",
      "import { ChatSurface, createLocalWorkspace } from 'chatsurface';",
      "import { defineCapability, textResult } from 'chatsurface/runtime';",
      // AG-UI's packages are optional peers, loaded by import() on the first run: the entry builds without them.
      "import { createAgUiWorkspace } from 'chatsurface/ag-ui';",
      "import 'chatsurface/styles.css';",
      "import { z } from 'zod';",
      "const hello = defineCapability({ name: 'notes.hello', title: 'Say hello', description: 'Says hello.', kind: 'read', input: z.object({}), handler: async () => textResult('Hello') });",
      "const workspace = location.hash === '#ag-ui' ? createAgUiWorkspace({ url: '/awp' }) : createLocalWorkspace({ capabilities: [hello] });",
      "createRoot(document.getElementById('root')).render(createElement(ChatSurface, { workspace }));",
    ].join('\n'),
  );
  try {
    timed('vite build (host app)', () => sh(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error'], app));
  } catch (error) {
    problems.push(`the host app does not build with Vite:\n${error.stderr || error.message}`);
  }

  // 3. Next.js App Router: a Server Component page imports the kit. Inside the repository (git-ignored)
  //    so next, react and the kit's dependencies resolve from this repository's node_modules.
  const next = join(root, '.checks/next-app');
  rmSync(next, { recursive: true, force: true });
  mkdirSync(join(next, 'app'), { recursive: true });
  mkdirSync(join(next, 'node_modules/chatsurface'), { recursive: true });
  sh('tar', ['-xzf', tarball, '-C', join(next, 'node_modules/chatsurface'), '--strip-components=1'], root);
  writeFileSync(join(next, 'package.json'), JSON.stringify({ name: 'next-host', private: true }, null, 2));
  // Its own jsconfig, so the repository's tsconfig paths (chatsurface → src/) do not apply: the page gets the tarball.
  writeFileSync(join(next, 'jsconfig.json'), JSON.stringify({ compilerOptions: { jsx: 'preserve' } }, null, 2));
  writeFileSync(join(next, 'next.config.mjs'), `export default { turbopack: { root: ${JSON.stringify(root)} } };\n`);
  writeFileSync(join(next, 'app/layout.js'), "export default function Layout({ children }) { return <html lang=\"en\"><body>{children}</body></html>; }\n");
  writeFileSync(
    join(next, 'app/page.js'),
    [
      '// A Server Component: no "use client" here. It imports the kit and renders one of its parts.',
      "import { EnsureQueryClient } from 'chatsurface';",
      "import { Chat } from './chat';",
      'export default function Page() { return <main><h1>Host page</h1><EnsureQueryClient><Chat /></EnsureQueryClient></main>; }',
    ].join('\n'),
  );
  writeFileSync(
    join(next, 'app/chat.js'),
    [
      "'use client';",
      "import { useState } from 'react';",
      "import { ChatSurface, createLocalWorkspace } from 'chatsurface';",
      'export function Chat() { const [workspace] = useState(() => createLocalWorkspace({ capabilities: [] })); return <ChatSurface workspace={workspace} />; }',
    ].join('\n'),
  );
  try {
    timed('next build (App Router, Server Component imports chatsurface)', () => sh(process.execPath, [join(root, 'node_modules/next/dist/bin/next'), 'build'], next));
  } catch (error) {
    problems.push(`the Next.js App Router page does not build:\n${(error.stdout || '') + (error.stderr || error.message)}`);
  }

  // 4. The types, as a consumer's compiler meets them: attw, publint, and a consumer project under
  //    nodenext and bundler resolution on TypeScript 5 and 7 (scripts/types-check.mjs).
  problems.push(...(await checkTypes({ root, tarball, work, sh, timed })));

  // 5. The server quick start of docs/server.md, as written: installed, started, and answering a turn.
  problems.push(...(await runServerQuickStart({ root, tarball, work })));
} finally {
  rmSync(work, { recursive: true, force: true });
}

if (problems.length) {
  console.error(`Browser-only install check failed:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log('Browser-only install: no native module, no optional peer, no @ag-ui/* or rxjs; Vite and Next.js builds pass; attw, publint and the consumer and docs type-checks (nodenext, bundler; TypeScript 5 and 7) report no problem; the server quick start answers a turn.');
