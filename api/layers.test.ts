import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The layering of docs/architecture.md ("Layering"), checked on every source file's imports:
// no import cycle between files, no import of a layer the table does not let a layer stand on,
// no SDK in the framework-free runtime. An import is every `import` and `export … from`,
// `import type` included (a cycle of types still ties two modules together), and `import()`.

/** The layers, bottom to top, each with the layers it may import (always lower in this list). */
const LAYERS: readonly { name: string; mayImport: readonly string[] }[] = [
  { name: 'core', mayImport: [] },
  { name: 'stores', mayImport: ['core'] },
  { name: 'prompt', mayImport: ['core'] },
  { name: 'slash', mayImport: ['core', 'stores'] },
  { name: 'sources', mayImport: ['core'] },
  { name: 'doors', mayImport: ['core'] },
  { name: 'engine', mayImport: ['core', 'prompt'] },
  { name: 'anthropic', mayImport: ['core', 'prompt'] },
  { name: 'openai', mayImport: ['core', 'prompt'] },
  { name: 'host', mayImport: ['core', 'stores', 'prompt', 'slash', 'doors', 'engine'] },
  { name: 'node', mayImport: ['core', 'stores', 'slash', 'sources', 'doors'] },
  { name: 'workspace', mayImport: ['core', 'slash', 'doors', 'host'] },
  { name: 'server', mayImport: ['core', 'stores', 'prompt', 'slash', 'sources', 'doors', 'engine', 'host', 'node', 'workspace'] },
  { name: 'hooks', mayImport: ['core', 'slash', 'workspace'] },
  { name: 'components', mayImport: ['core', 'slash', 'workspace', 'hooks'] },
  { name: 'entry', mayImport: ['core', 'stores', 'prompt', 'slash', 'sources', 'doors', 'engine', 'anthropic', 'openai', 'host', 'node', 'workspace', 'server', 'hooks', 'components'] },
];

/** The layer of a file (a path under src/), or null for test support, which no rule covers. */
function layerOf(path: string): string | null {
  if (/^test\//.test(path) || /\.suite\.ts$/.test(path)) return null;
  if (/^[^/]+\.tsx?$/.test(path) || path === 'runtime/index.ts') return 'entry';
  // The turn runner and the offline driver sit beside the core's files but stand on the engine.
  if (path === 'runtime/turn.ts' || path === 'runtime/offlineDriver.ts') return 'engine';
  if (/^runtime\/[^/]+$/.test(path)) return 'core';
  // The fold's and the events' own folders are parts of the core modules of those names.
  if (/^runtime\/(fold|events)\//.test(path)) return 'core';
  const [top, sub] = path.split('/');
  if (top === 'runtime') return sub!;
  return top!;
}

/** The runtime's modules that wrap an SDK, each behind its own entry and an optional peer. */
const SDK_ADAPTERS = ['runtime/anthropic/driver.ts', 'runtime/anthropic/errors.ts', 'runtime/openai/driver.ts', 'runtime/openai/errors.ts', 'runtime/sources/mcpConnection.ts', 'runtime/sources/mcpTasks.ts', 'runtime/sources/mcpClientRequests.ts'];

const src = new URL('../src/', import.meta.url).pathname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Every module specifier a file names: static imports and re-exports (types too) and `import()`. */
function specifiers(path: string, text: string): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false);
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      out.push(node.arguments[0].text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      out.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

/** The source graph: each file (relative to src/) with the source files it imports. */
function importGraph(files: ReadonlyMap<string, string>): Map<string, { local: string[]; packages: string[] }> {
  const resolve = (from: string, spec: string) => {
    const base = join(dirname(from), spec);
    return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find((p) => /\.tsx?$/.test(p) && files.has(p));
  };
  const graph = new Map<string, { local: string[]; packages: string[] }>();
  for (const [path, text] of files) {
    const local: string[] = [];
    const packages: string[] = [];
    for (const spec of specifiers(path, text)) {
      if (!spec.startsWith('.')) packages.push(spec);
      else {
        const to = resolve(path, spec);
        if (to && !local.includes(to)) local.push(to);
      }
    }
    graph.set(path, { local, packages });
  }
  return graph;
}

/** The import cycles: one per group of files that reach each other, as a shortest cycle through its first file. */
function cycles(graph: ReadonlyMap<string, { local: readonly string[] }>): string[] {
  // Tarjan's strongly connected components; each group of more than one file (or a file that
  // imports itself) is a cycle, named by a shortest cycle through its first file in path order.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const strongConnect = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.local ?? []) {
      if (!index.has(w)) {
        strongConnect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || graph.get(v)?.local.includes(v)) groups.push(group.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) strongConnect(v);
  return groups.map((group) => {
    const inGroup = new Set(group);
    const start = group[0]!;
    // Breadth first from the start back to it, inside the group.
    const previous = new Map<string, string>();
    const queue = [start];
    let end: string | undefined;
    while (queue.length > 0 && !end) {
      const v = queue.shift()!;
      for (const w of graph.get(v)?.local ?? []) {
        if (!inGroup.has(w)) continue;
        if (w === start) {
          end = v;
          break;
        }
        if (!previous.has(w)) {
          previous.set(w, v);
          queue.push(w);
        }
      }
    }
    const path = [start];
    for (let v = end!; v !== start; v = previous.get(v)!) path.splice(1, 0, v);
    return [...path, start].join(' → ');
  });
}

/** Imports of a layer the importer's layer may not stand on, as `from → to`. */
function upwardImports(graph: ReadonlyMap<string, { local: readonly string[] }>): string[] {
  const allowed = new Map(LAYERS.map((l) => [l.name, new Set([l.name, ...l.mayImport])]));
  const out: string[] = [];
  for (const [path, { local }] of graph) {
    const from = layerOf(path);
    if (from === null) continue;
    const mayImport = allowed.get(from);
    if (!mayImport) throw new Error(`${path}: layer "${from}" is not in the layer table`);
    for (const to of local) {
      const layer = layerOf(to);
      if (layer !== null && !mayImport.has(layer)) out.push(`${path} → ${to}`);
    }
  }
  return out.sort();
}

const texts = new Map(sourceFiles(src).map((path) => [relative(src, path), readFileSync(path, 'utf8')]));
const graph = importGraph(texts);

describe('layering (docs/architecture.md, "Layering")', () => {
  it('reads the source tree, type imports and import() included', () => {
    expect(graph.size).toBeGreaterThan(200);
    expect(graph.get('runtime/fold/rows.ts')?.local).toContain('runtime/capabilitySchemas.ts'); // import type
    expect(graph.get('runtime/offlineDriver.ts')?.local).toContain('runtime/engine/offline.ts'); // import()
  });

  it('the layer table lists each layer above every layer it may import', () => {
    const names = LAYERS.map((l) => l.name);
    for (const [i, layer] of LAYERS.entries()) for (const lower of layer.mayImport) expect(names.indexOf(lower), `${layer.name} → ${lower}`).toBeLessThan(i);
  });

  it('has no import cycle', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('has no upward import', () => {
    expect(upwardImports(graph)).toEqual([]);
  });

  it('the framework-free runtime imports no SDK and no node built-in (its SDK adapters aside)', () => {
    const offenders = [...graph]
      .filter(([path]) => path.startsWith('runtime/') && !path.startsWith('runtime/node/') && !SDK_ADAPTERS.includes(path))
      .flatMap(([path, { packages }]) =>
        packages.filter((p) => /^(@anthropic-ai\/|@modelcontextprotocol\/|openai$|openai\/|pg$|pg\/|better-sqlite3|hono|@hono\/|undici|node:)/.test(p)).map((p) => `${path} → ${p}`),
      );
    expect(offenders).toEqual([]);
    // And each adapter is what it says: it wraps an SDK.
    for (const path of SDK_ADAPTERS) expect(graph.get(path)?.packages.some((p) => /^(@(anthropic-ai|modelcontextprotocol)\/|openai$)/.test(p)), path).toBe(true);
  });

  it('finds a new cycle and a new upward import (the checks can fail)', () => {
    const withViolations = new Map(texts);
    // A new cycle: the events import the event log, which imports the events.
    withViolations.set('runtime/events.ts', `${texts.get('runtime/events.ts')}\nimport './eventLog';\n`);
    // A new upward import: the engine reaches for the host.
    withViolations.set('runtime/engine/deltaCoalescer.ts', `${texts.get('runtime/engine/deltaCoalescer.ts')}\nimport type { ThreadHost } from '../host/threadHost';\n`);
    const changed = importGraph(withViolations);
    expect(cycles(changed).length).toBeGreaterThan(0);
    expect(upwardImports(changed)).toContain('runtime/engine/deltaCoalescer.ts → runtime/host/threadHost.ts');
  });
});
