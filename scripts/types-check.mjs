// The published types, as a consumer's compiler meets them (called by scripts/install-check.mjs
// with the packed tarball):
// 1. @arethetypeswrong/cli on the tarball: every entry of package.json "exports" resolves to its
//    declarations under node16 (from ESM) and bundler resolution, and no problem is reported. The
//    package is ESM only (profile esm-only: CommonJS `require` and node10 are not supported), and
//    ./styles.css has no types to check;
// 2. publint on the tarball, warnings counted as errors;
// 3. a consumer project imports every entry and type-checks without skipLibCheck, once with
//    `module: nodenext` (a Node TypeScript server) and once with `moduleResolution: bundler`
//    (a Vite app), on this repository's TypeScript 5.x and on TypeScript 7. Each entry is used
//    with a wrongly typed value under `// @ts-expect-error`, so an import that silently became
//    `any` fails the check (TS2578: unused @ts-expect-error) as loudly as a missing one.
//    The project lives in .checks/ (git-ignored) so the optional peers and @types resolve from
//    this repository's node_modules; the kit itself is the tarball, unpacked.
// 4. in the same project and runs, every ```ts / ```tsx block of README.md and docs/*.md not
//    marked `<!-- fragment -->`, each a file of its own; a failure names the doc and its line
//    (scripts/docs-check.mjs has the rule).
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DOCS_COMPILER_OPTIONS, writeDocBlocks } from './docs-check.mjs';

const execFileAsync = promisify(execFile);

/** TypeScript 7 (the native compiler), installed for the check only: as a devDependency its `tsc` bin would collide with 5.x's. */
export const TYPESCRIPT_7 = '7.0.2';

const CONSUMER = `// Every entry of chatsurface's "exports"; each used so that an \`any\` fails the check.
import { createElement } from 'react';
import { ChatSurface, createLocalWorkspace, type LocalWorkspace } from 'chatsurface';
import { defineCapability, textResult, type CapabilityResult } from 'chatsurface/runtime';
import { createWorkspaceServer, issueSession, type WorkspaceServer } from 'chatsurface/server';
import { createMcpConnection, type McpConnection } from 'chatsurface/mcp';
import { createAnthropicDriver } from 'chatsurface/anthropic';
import { createOpenAIDriver } from 'chatsurface/openai';
import { createAgUiWorkspace } from 'chatsurface/ag-ui';
import { createId } from 'chatsurface/internal';
import { scriptedWorkspace, type ScriptedWorkspace } from 'chatsurface/testing';

export const result: CapabilityResult = textResult('hello');
// @ts-expect-error textResult takes text
textResult(42);

export const workspace: LocalWorkspace = createLocalWorkspace({ capabilities: [] });
// @ts-expect-error the capabilities are required
createLocalWorkspace({});
export const surface = createElement(ChatSurface, { workspace });
// @ts-expect-error ChatSurface needs a workspace
createElement(ChatSurface, { workspace: 42 });

export const id: string = createId('thread');
// @ts-expect-error createId returns a string
export const wrongId: number = createId('thread');

export async function serve(): Promise<Response> {
  const server: WorkspaceServer = await createWorkspaceServer({ capabilities: [] });
  // @ts-expect-error the capabilities are required
  await createWorkspaceServer({});
  // @ts-expect-error fetch takes a Request
  await server.fetch(42);
  // @ts-expect-error issueSession takes a request
  issueSession(42);
  return server.fetch(new Request('http://localhost/v1/threads'));
}

export const connect = (url: string): McpConnection => createMcpConnection({ name: 'notes', url });
// @ts-expect-error an MCP connection needs its options
createMcpConnection(42);

export const driver = createAnthropicDriver({});
// @ts-expect-error maxTokens is a number
createAnthropicDriver({ maxTokens: 'many' });

export const local = createOpenAIDriver({ baseURL: 'http://127.0.0.1:11434/v1', model: 'llama3.2' });
// @ts-expect-error the model is required
createOpenAIDriver({ baseURL: 'http://127.0.0.1:8080/v1' });

export const agUi = createAgUiWorkspace({ url: '/awp' });
// @ts-expect-error the url is a string
createAgUiWorkspace({ url: 42 });

export const scripted: ScriptedWorkspace = scriptedWorkspace();
// @ts-expect-error the options are an object
scriptedWorkspace(42);

export { defineCapability };
`;

const COMPILER_OPTIONS = {
  target: 'ES2022',
  lib: ['ES2023', 'DOM', 'DOM.Iterable'],
  strict: true,
  noEmit: true,
  skipLibCheck: false,
  // Only TypeScript's own lib.*.d.ts go unchecked (about a fifth of the time); every package's
  // declarations, the kit's and its dependencies', are checked.
  skipDefaultLibCheck: true,
  types: ['node'],
};

/** Resolves to the problems found (empty when the types are right). The checks run side by side, as many as there are cores. */
export async function checkTypes({ root, tarball, work, sh, timed }) {
  const problems = [];
  const bin = (name) => join(root, 'node_modules/.bin', name);
  /** @type {{ label: string; command: string; args: string[]; cwd: string; explain?: (output: string) => string }[]} */
  const checks = [];
  const add = (label, command, args, cwd, explain) => checks.push({ label, command, args, cwd, explain });

  add('attw (packed tarball, esm-only profile)', bin('attw'), [tarball, '--profile', 'esm-only', '--exclude-entrypoints', './styles.css', '--format', 'ascii'], root);
  add('publint --strict (packed tarball)', bin('publint'), ['run', tarball, '--strict'], root);

  const app = join(root, '.checks/types-app');
  rmSync(app, { recursive: true, force: true });
  mkdirSync(join(app, 'node_modules/chatsurface'), { recursive: true });
  sh('tar', ['-xzf', tarball, '-C', join(app, 'node_modules/chatsurface'), '--strip-components=1'], root);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'types-consumer', private: true, type: 'module' }, null, 2));
  writeFileSync(join(app, 'consumer.ts'), CONSUMER);
  const docs = writeDocBlocks(root, app);
  problems.push(...docs.problems);
  const modes = {
    nodenext: { module: 'nodenext', moduleResolution: 'nodenext' },
    bundler: { module: 'esnext', moduleResolution: 'bundler' },
  };
  for (const [mode, options] of Object.entries(modes)) {
    writeFileSync(join(app, `tsconfig.${mode}.json`), JSON.stringify({ compilerOptions: { ...COMPILER_OPTIONS, ...DOCS_COMPILER_OPTIONS, ...options }, files: ['consumer.ts', ...docs.files] }, null, 2));
  }

  let tsc7 = null;
  try {
    const ts7 = join(work, 'typescript-7');
    mkdirSync(ts7, { recursive: true });
    writeFileSync(join(ts7, 'package.json'), '{"private":true}');
    timed(`npm install typescript@${TYPESCRIPT_7}`, () => sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error', `typescript@${TYPESCRIPT_7}`], ts7));
    tsc7 = join(ts7, 'node_modules/typescript/bin/tsc');
  } catch (error) {
    problems.push(`TypeScript ${TYPESCRIPT_7} could not be installed: ${(error.stderr || error.message).trim()}`);
  }
  const compilers = [['5', join(root, 'node_modules/typescript/bin/tsc')], ...(tsc7 ? [['7', tsc7]] : [])];
  for (const [version, tsc] of compilers) {
    for (const mode of Object.keys(modes)) {
      add(`consumer and docs type-check, ${mode}, TypeScript ${version} (no skipLibCheck; ${docs.files.length} doc blocks)`, process.execPath, [tsc, '-p', `tsconfig.${mode}.json`], app, docs.explain);
    }
  }

  const queue = [...checks];
  const worker = async () => {
    for (let check = queue.shift(); check; check = queue.shift()) {
      const started = Date.now();
      try {
        await execFileAsync(check.command, check.args, { cwd: check.cwd, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
        console.log(`  ${check.label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      } catch (error) {
        console.log(`  ${check.label}: FAILED (${((Date.now() - started) / 1000).toFixed(1)} s)`);
        const output = ((error.stdout || '') + (error.stderr || '')).trim() || error.message;
        problems.push(`${check.label}:\n${check.explain ? check.explain(output) : output}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(availableParallelism(), checks.length)) }, worker));
  return problems;
}
