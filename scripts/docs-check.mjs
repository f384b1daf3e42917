// Docs that run (issue 39), against the packed tarball, called by scripts/install-check.mjs and
// scripts/types-check.mjs in `npm test`. The rule for README.md and docs/*.md:
//
// - Every fenced block tagged ```ts or ```tsx is a program: it is written as a file of its own
//   into the consumer project and type-checked with the published types (strict, no skipLibCheck,
//   nodenext and bundler resolution, TypeScript 5 and 7). A failure names the doc and its line.
// - A block that is an excerpt (an options object, a JSX tree, a type's outline) says so with
//   `<!-- fragment -->` (or `<!-- fragment: why -->`) on the line right above its fence, and is
//   not checked. Blocks tagged anything else (bash, md, css, none) are not code to check.
// - A block whose first line is only `// <path>.ts` or `// <path>.tsx` is that file of the doc's
//   project (`// server.ts`, `// src/main.tsx`), so blocks of one doc can be one program.
// - docs/server.md's quick start is also run (runServerQuickStart): its `npm install` lines are
//   installed (the tarball, its dependencies, and exactly the packages those lines name), its
//   server.ts is compiled as Node's type stripping would run it and started with node, Vite
//   starts with its vite.config.ts, and a client signs in through the proxy, sends a message and
//   reads the event stream until the turn is done; then its src/main.tsx, in Chromium, signs in
//   and chats the same way. Standalone: `node scripts/docs-check.mjs`
//   (after `npm run build`) runs both on TypeScript 5.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** Where the doc blocks go inside the consumer project. */
const BLOCKS_DIR = 'docs-blocks';
/** The doc whose quick start is run, and the file of it that is the server. */
const QUICK_START = { doc: 'docs/server.md', section: 'Quick start', server: 'server.ts', vite: 'vite.config.ts' };

/** Compiler options the doc blocks need beside the consumer check's: JSX, every file a module, a Vite page's CSS imports. */
export const DOCS_COMPILER_OPTIONS = { jsx: 'react-jsx', moduleDetection: 'force', types: ['node', 'vite/client'] };

/** The docs this check reads: README.md and docs/*.md. */
function docFiles(root) {
  return ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`)];
}

/**
 * Every fenced block of a doc: its language, its code, the doc line of its first code line, the
 * `##` section it is in, whether it is marked a fragment, and the file it names (if any).
 */
export function extractBlocks(root, doc) {
  const lines = readFileSync(join(root, doc), 'utf8').split('\n');
  const blocks = [];
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const heading = /^## (.+)$/.exec(lines[i]);
    if (heading) section = heading[1].trim();
    // A fence may be indented (inside a list item): its code loses that indentation.
    const open = /^( *)```(\w*)\s*$/.exec(lines[i]);
    if (!open) continue;
    let end = i + 1;
    while (end < lines.length && !/^ *```\s*$/.test(lines[end])) end++;
    let above = i - 1;
    while (above >= 0 && lines[above].trim() === '') above--;
    const code = lines.slice(i + 1, end).map((line) => (line.startsWith(open[1]) ? line.slice(open[1].length) : line));
    const named = /^\/\/ ([\w./-]+\.tsx?)$/.exec(code[0]?.trim() ?? '');
    blocks.push({
      doc,
      lang: open[2],
      line: i + 2,
      section,
      code: `${code.join('\n')}\n`,
      fragment: above >= 0 && /^<!--\s*fragment\b.*-->$/.test(lines[above].trim()),
      file: named ? named[1] : null,
    });
    i = end;
  }
  return blocks;
}

/** The programs among the docs' blocks (```ts and ```tsx not marked as fragments). */
export function programBlocks(root) {
  return docFiles(root).flatMap((doc) => extractBlocks(root, doc)).filter((b) => (b.lang === 'ts' || b.lang === 'tsx') && !b.fragment);
}

/** The folder of a doc's blocks in the consumer project: `docs-blocks/docs/server`, `docs-blocks/README`. */
const folderOf = (doc) => join(BLOCKS_DIR, doc.replace(/\.md$/, ''));

/**
 * Writes every program block into `app` (one file each; named ones under their names) and returns
 * the files (relative to `app`) and `explain`, which turns compiler output about those files into
 * `doc:line:column` lines.
 */
export function writeDocBlocks(root, app) {
  rmSync(join(app, BLOCKS_DIR), { recursive: true, force: true });
  const origin = new Map();
  const problems = [];
  for (const block of programBlocks(root)) {
    const file = join(folderOf(block.doc), block.file ?? `line-${block.line}.${block.lang}`);
    if (origin.has(file)) {
      problems.push(`${block.doc}:${block.line}: a second block names ${block.file} (the first is at line ${origin.get(file).line})`);
      continue;
    }
    origin.set(file, block);
    mkdirSync(dirname(join(app, file)), { recursive: true });
    writeFileSync(join(app, file), block.code);
  }
  const explain = (output) =>
    output.replace(/(docs-blocks\/[\w./-]+\.tsx?)(?:\((\d+),(\d+)\)|:(\d+):(\d+))/g, (whole, file, l1, c1, l2, c2) => {
      const block = origin.get(file);
      if (!block) return whole;
      return `${block.doc}:${block.line + Number(l1 ?? l2) - 1}:${c1 ?? c2} (block at ${block.doc}:${block.line})`;
    });
  return { files: [...origin.keys()], explain, problems };
}

// ---------------------------------------------------------------------------------------------
// The server quick start, run.
// ---------------------------------------------------------------------------------------------

/** The quick start of docs/server.md: the packages its `npm install` lines name and its named files. */
export function quickStart(root) {
  const blocks = extractBlocks(root, QUICK_START.doc);
  const installs = blocks
    .filter((b) => b.section === QUICK_START.section && (b.lang === 'bash' || b.lang === 'sh'))
    .flatMap((b) => b.code.split('\n'))
    .filter((line) => /^npm (install|i)\b/.test(line.trim()));
  const packages = installs.flatMap((line) => line.trim().split(/\s+/).slice(2).filter((word) => !word.startsWith('-') && !word.startsWith('#')));
  const files = blocks.filter((b) => b.file && (b.lang === 'ts' || b.lang === 'tsx') && !b.fragment);
  return { packages, files };
}

/** A free TCP port on 127.0.0.1. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once `url` answers anything over HTTP (or rejects after `ms`, with what the process printed). */
async function answering(url, ms, child, printed) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`it exited (${child.exitCode}) before answering:\n${printed()}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(2_000) });
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`${url} did not answer within ${ms / 1000} s:\n${printed()}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** Runs `work` (sync or async) and prints how long it took. */
async function timed(label, work) {
  const started = Date.now();
  const out = await work();
  console.log(`  ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return out;
}

/** Starts a child process and keeps what it prints. */
function start(command, args, options) {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (out += chunk));
  return { child, printed: () => out.trim().split('\n').slice(-30).join('\n') };
}

/** Reads a thread's server-sent events until one with `seq >= lastSeq`; resolves to the events. */
async function readUntil(url, headers, lastSeq, ms) {
  const response = await fetch(url, { headers: { ...headers, accept: 'text/event-stream' }, signal: AbortSignal.timeout(ms) });
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}: ${await response.text()}`);
  const events = [];
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the event stream ended before seq ${lastSeq} (got ${events.map((e) => e.type).join(', ')})`);
      buffer += value;
      let cut;
      while ((cut = buffer.indexOf('\n\n')) !== -1) {
        const message = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const data = message.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trimStart()).join('\n');
        if (!data) continue;
        const event = JSON.parse(data);
        events.push(event);
        if (event.seq >= lastSeq) return events;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/**
 * The client's half: through the page's origin (Vite and its proxy), sign in at the documented
 * route, read the manifest, ask "what can you do?", and read the events until the turn is done.
 * Returns what went wrong, or the titles of the server's capabilities (the reply named each).
 */
async function talkThroughProxy(page) {
  const origin = { origin: page };
  const signIn = await fetch(`${page}/sign-in`, { method: 'POST', headers: { ...origin, 'content-type': 'application/json' }, body: '{}' });
  if (!signIn.ok) return `POST /sign-in through the dev proxy answered ${signIn.status}: ${await signIn.text()}`;
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0];
  if (!cookie) return 'POST /sign-in set no cookie';
  const manifest = await fetch(`${page}/v1/manifest`, { headers: { cookie } });
  if (!manifest.ok) return `GET /v1/manifest (signed in) answered ${manifest.status}: ${await manifest.text()}`;
  const titles = (await manifest.json()).capabilities.map((c) => c.title);
  if (!titles.length) return 'the manifest lists no capability';
  const turn = await fetch(`${page}/v1/threads/quick-start/turns`, {
    method: 'POST',
    headers: { ...origin, cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'what can you do?' }),
  });
  if (!turn.ok) return `POST /v1/threads/quick-start/turns answered ${turn.status}: ${await turn.text()}`;
  const { lastSeq } = await turn.json();
  const events = await readUntil(`${page}/v1/threads/quick-start/events`, { cookie }, lastSeq, 20_000);
  const reply = events.filter((e) => e.type === 'message.created' && e.role === 'assistant');
  const text = reply.map((m) => m.text + events.filter((e) => e.type === 'message.delta' && e.message_id === m.message_id).map((e) => e.delta).join('')).join('');
  const done = events.find((e) => e.type === 'turn.done');
  if (!done || done.outcome !== 'answered') return `the turn did not end answered (${done ? done.outcome : 'no turn.done'}; events: ${events.map((e) => e.type).join(', ')})`;
  const missing = titles.filter((title) => !text.includes(title));
  if (!text.trim() || missing.length) return `the reply to "what can you do?" does not name ${missing.join(', ') || 'anything'}: "${text}"`;
  return { titles };
}

/**
 * The page's half, in Chromium: src/main.tsx of the quick start (under the index.html a Vite
 * app has), through Vite and its proxy: it signs in, opens the workspace with `url: ''`, and
 * the chat answers "what can you do?" naming the server's capabilities. Returns what went wrong, or null.
 */
async function chatInChromium(root, page, titles) {
  const executablePath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => path && existsSync(path));
  if (!executablePath) return 'no Chromium to open the page with (set CHROMIUM_PATH)';
  const { chromium } = await import(join(root, 'node_modules/playwright-core/index.mjs'));
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
  const errors = [];
  try {
    const tab = await browser.newPage();
    // An error the page throws (the remote workspace could not start) ends the wait at once.
    const thrown = new Promise((_resolve, reject) => tab.on('pageerror', (error) => reject(errors.push(error.message) && new Error('the page threw'))));
    thrown.catch(() => undefined);
    await tab.goto(`${page}/`);
    const input = tab.getByRole('textbox', { name: 'Message' });
    // The first load transforms and pre-bundles the kit and React: a minute at most.
    await Promise.race([input.waitFor({ timeout: 60_000 }), thrown]);
    await input.fill('what can you do?');
    await input.press('Enter');
    const reply = tab.getByRole('log', { name: 'Conversation' }).locator('[data-part="message"][data-role="assistant"]').last();
    await reply.waitFor({ timeout: 20_000 });
    const deadline = Date.now() + 20_000;
    let text = '';
    while (Date.now() < deadline) {
      text = (await reply.textContent()) ?? '';
      if (titles.every((title) => text.includes(title))) return errors.length ? `the page threw: ${errors.join('; ')}` : null;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return `the page's reply to "what can you do?" does not name ${titles.join(', ')}: "${text}"`;
  } catch (error) {
    return `the page did not chat: ${error.message.split('\n')[0]}${errors.length ? ` (the page threw: ${errors.join('; ')})` : ''}`;
  } finally {
    await browser.close();
  }
}

/**
 * Installs docs/server.md's quick start as its install lines say (from this repository's
 * node_modules, the kit from the tarball), type-checks and compiles its files, starts the server
 * and Vite, and talks to them as the page would. Resolves to the problems found.
 */
export async function runServerQuickStart({ root, tarball, work }) {
  const { packages, files } = quickStart(root);
  const where = (file) => files.find((f) => f.file === file);
  const problems = [];
  for (const file of [QUICK_START.server, QUICK_START.vite]) {
    if (!where(file)) problems.push(`${QUICK_START.doc}: the quick start has no block that is ${file} (a first line of just "// ${file}")`);
  }
  if (!packages.length) problems.push(`${QUICK_START.doc}: the quick start has no npm install line`);
  if (problems.length) return problems;

  // The project: the tarball's kit and its dependencies (npm installs those with it), then exactly
  // the packages the install lines name, linked from this repository's node_modules. Outside the
  // repository, so nothing else resolves: a package the lines forget fails here as on a host.
  const dir = join(work, 'server-quick-start');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'node_modules/chatsurface'), { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', join(dir, 'node_modules/chatsurface'), '--strip-components=1']);
  const kit = JSON.parse(readFileSync(join(dir, 'node_modules/chatsurface/package.json'), 'utf8'));
  const link = (name) => {
    const target = join(root, 'node_modules', name);
    if (!existsSync(target)) return false;
    mkdirSync(dirname(join(dir, 'node_modules', name)), { recursive: true });
    if (!existsSync(join(dir, 'node_modules', name))) symlinkSync(target, join(dir, 'node_modules', name), 'dir');
    return true;
  };
  for (const name of Object.keys(kit.dependencies ?? {})) link(name);
  for (const spec of packages) {
    const name = spec.replace(/(.)@.*$/, '$1');
    if (name === 'chatsurface') continue;
    if (!link(name)) problems.push(`${QUICK_START.doc}: the quick start installs ${name}, which this repository does not have to test with (add it to devDependencies)`);
  }
  if (problems.length) return problems;
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'quick-start', private: true, type: 'module' }, null, 2));
  // The page the Vite template already has (the quick start replaces its src/main.tsx).
  writeFileSync(join(dir, 'index.html'), '<!doctype html>\n<html lang="en">\n  <head><meta charset="UTF-8" /><title>Quick start</title></head>\n  <body>\n    <div id="root"></div>\n    <script type="module" src="/src/main.tsx"></script>\n  </body>\n</html>\n');
  for (const block of files) {
    mkdirSync(dirname(join(dir, block.file)), { recursive: true });
    writeFileSync(join(dir, block.file), block.code);
  }
  // What `node server.ts` (type stripping) runs: erasable syntax, type-only imports marked; strict,
  // and without skipLibCheck: the kit's declarations must resolve with only what the doc installs
  // (no @types/pg, no @types/better-sqlite3, no @modelcontextprotocol/ext-apps).
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2023', 'DOM', 'DOM.Iterable'],
          module: 'nodenext',
          moduleResolution: 'nodenext',
          jsx: 'react-jsx',
          strict: true,
          skipLibCheck: false,
          verbatimModuleSyntax: true,
          erasableSyntaxOnly: true,
          types: ['node', 'vite/client'],
          outDir: 'out',
          noEmitOnError: true,
        },
        files: files.map((f) => f.file),
      },
      null,
      2,
    ),
  );
  try {
    await timed('quick start: type-check and compile (docs/server.md)', () =>
      execFileAsync(process.execPath, [join(dir, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: dir, encoding: 'utf8' }),
    );
  } catch (error) {
    const origin = new Map(files.map((f) => [f.file, f]));
    const output = ((error.stdout || '') + (error.stderr || '')).trim() || error.message;
    const named = output.replace(/^([\w./-]+\.tsx?)\((\d+),(\d+)\)/gm, (whole, file, l, c) => {
      const block = origin.get(file);
      return block ? `${block.doc}:${block.line + Number(l) - 1}:${c} (${file})` : whole;
    });
    return [`the server quick start does not compile as installed:\n${named}`];
  }

  const serverPort = await freePort();
  const vitePort = await freePort();
  const server = start(process.execPath, [join('out', QUICK_START.server.replace(/\.ts$/, '.js'))], { cwd: dir, env: { ...process.env, PORT: String(serverPort) } });
  let vite = null;
  try {
    await answering(`http://127.0.0.1:${serverPort}/v1/manifest`, 30_000, server.child, server.printed);
    vite = start(process.execPath, [join(dir, 'node_modules/vite/bin/vite.js'), '--port', String(vitePort), '--strictPort', '--host', '127.0.0.1'], {
      cwd: dir,
      env: { ...process.env, WORKSPACE_URL: `http://127.0.0.1:${serverPort}` },
    });
    const page = `http://127.0.0.1:${vitePort}`;
    await answering(`${page}/`, 30_000, vite.child, vite.printed);
    const talked = await timed('quick start: server and Vite started; a client signed in through the proxy and a turn answered', () => talkThroughProxy(page));
    if (typeof talked === 'string') problems.push(`the server quick start (${QUICK_START.doc}) ran, but ${talked}\nserver output:\n${server.printed()}`);
    else {
      const wrong = await timed('quick start: its page (src/main.tsx) in Chromium signed in and chatted', () => chatInChromium(root, page, talked.titles));
      if (wrong) problems.push(`the server quick start's page (${QUICK_START.doc}, src/main.tsx) ran, but ${wrong}\nVite output:\n${vite.printed()}`);
    }
  } catch (error) {
    problems.push(`the server quick start (${QUICK_START.doc}) did not run: ${error.message}`);
  } finally {
    for (const { child } of [server, vite].filter(Boolean)) if (child.exitCode === null) child.kill('SIGTERM');
  }
  return problems;
}

// Standalone: pack the built package and run the docs' checks on TypeScript 5 (bundler and nodenext).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  if (!existsSync(join(root, 'dist/index.js'))) throw new Error('dist/ is missing: run `npm run build` first.');
  const work = mkdtempSync(join(tmpdir(), 'chatsurface-docs-'));
  const problems = [];
  try {
    const tarball = join(work, execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: root, encoding: 'utf8' }).trim().split('\n').pop());
    const app = join(root, '.checks/docs-app');
    rmSync(app, { recursive: true, force: true });
    mkdirSync(join(app, 'node_modules/chatsurface'), { recursive: true });
    execFileSync('tar', ['-xzf', tarball, '-C', join(app, 'node_modules/chatsurface'), '--strip-components=1']);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'docs-consumer', private: true, type: 'module' }, null, 2));
    const docs = writeDocBlocks(root, app);
    problems.push(...docs.problems);
    const base = { target: 'ES2022', lib: ['ES2023', 'DOM', 'DOM.Iterable'], strict: true, noEmit: true, skipLibCheck: false, skipDefaultLibCheck: true, ...DOCS_COMPILER_OPTIONS };
    for (const [mode, options] of Object.entries({ nodenext: { module: 'nodenext', moduleResolution: 'nodenext' }, bundler: { module: 'esnext', moduleResolution: 'bundler' } })) {
      writeFileSync(join(app, `tsconfig.${mode}.json`), JSON.stringify({ compilerOptions: { ...base, ...options }, files: docs.files }, null, 2));
      try {
        await execFileAsync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', `tsconfig.${mode}.json`], { cwd: app, encoding: 'utf8' });
        console.log(`  docs' code blocks type-check, ${mode} (${docs.files.length} blocks)`);
      } catch (error) {
        problems.push(`docs' code blocks, ${mode}:\n${docs.explain(((error.stdout || '') + (error.stderr || '')).trim())}`);
      }
    }
    problems.push(...(await runServerQuickStart({ root, tarball, work })));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  if (problems.length) {
    console.error(`Docs check failed:\n- ${problems.join('\n- ')}`);
    process.exit(1);
  }
  console.log(`Docs check: every program block type-checks; the server quick start answered a turn, to a client and to its page in Chromium.`);
}
