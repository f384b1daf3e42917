import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Import rules of docs/architecture.md ("Layering"), checked on every source file's imports: what
 * the framework-free runtime and the page may import. The layer table itself (no cycles, no upward
 * imports, no SDK in the framework-free runtime) is checked in layers.test.ts.
 */
const src = new URL('../src/', import.meta.url).pathname;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

function imports(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]/g), ...text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)].map(
    (m) => m[1]!,
  );
}

const all = files(src).map((path) => ({ path: relative(src, path), imports: imports(path) }));

describe('import rules', () => {
  it('reads the source tree', () => {
    expect(all.length).toBeGreaterThan(20);
    expect(all.find((f) => f.path === 'components/chat-surface/ChatSurfaceRoot.tsx')?.imports).toContain('../../hooks/context');
  });

  it('src/runtime (outside node/) imports no React, DOM library, state library or node built-in', () => {
    const offenders = all
      .filter((f) => f.path.startsWith('runtime/') && !f.path.startsWith('runtime/node/'))
      .flatMap((f) => f.imports.filter((i) => /^(react|react-dom|zustand|cmdk|radix-ui|@tanstack\/)|^node:|^(fs|path|http|child_process)$/.test(i)).map((i) => `${f.path} → ${i}`));
    expect(offenders).toEqual([]);
  });

  it('src/runtime (outside node/) touches no DOM global', () => {
    const offenders = all
      .filter((f) => f.path.startsWith('runtime/') && !f.path.startsWith('runtime/node/'))
      .filter((f) => /\b(document|window|localStorage|HTMLElement)\./.test(readFileSync(join(src, f.path), 'utf8')))
      .map((f) => f.path);
    expect(offenders).toEqual([]);
  });

  it('components, hooks and workspaces import no server code and no SDK', () => {
    const offenders = all
      .filter((f) => /^(components|hooks|workspace)\//.test(f.path) || f.path === 'index.ts')
      .flatMap((f) =>
        f.imports
          .filter((i) => /runtime\/node|^node:|^@anthropic-ai\/|^openai($|\/)|^@modelcontextprotocol\/|server\//.test(i) || /(^|\/)runtime(\/index)?$/.test(i))
          // The one exception: the MCP App frame loads the Apps host bridge (an optional peer) with import(), checked below.
          .filter((i) => !(f.path === 'components/mcp-app/McpAppFrame.tsx' && i === '@modelcontextprotocol/ext-apps/app-bridge'))
          .map((i) => `${f.path} → ${i}`),
      );
    expect(offenders).toEqual([]);
  });

  it('the MCP App frame loads @modelcontextprotocol/ext-apps only through a dynamic import (a page that shows no app never loads it)', () => {
    const text = readFileSync(join(src, 'components/mcp-app/McpAppFrame.tsx'), 'utf8');
    expect(text).toMatch(/import\(\s*'@modelcontextprotocol\/ext-apps\/app-bridge'\s*\)/);
    const staticValueImports = [...text.matchAll(/(?:^|\n)\s*(?:import|export)(?!\s+type\s)[^'"]*?from\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!);
    expect(staticValueImports.filter((i) => i.startsWith('@modelcontextprotocol/'))).toEqual([]);
  });

  it('only the Node side (src/runtime/node, src/server) and test helpers import the PostgreSQL client', () => {
    const offenders = all
      .filter((f) => !/^(runtime\/node|server|test)\//.test(f.path))
      .flatMap((f) => f.imports.filter((i) => /^pg(-|$|\/)/.test(i)).map((i) => `${f.path} → ${i}`));
    expect(offenders).toEqual([]);
    expect(all.find((f) => f.path === 'runtime/node/postgres.ts')?.imports).toContain('pg');
  });

  it("the `.` entry reaches cmdk and radix-ui only through a dynamic import (the slash UI's chunks)", () => {
    // Static value imports only: `import()` starts a chunk of its own, which a page loads later,
    // and `import type` is erased.
    const staticImports = (path: string) =>
      [...readFileSync(join(src, path), 'utf8').matchAll(/(?:^|\n)\s*(?:import|export)(?!\s+type\s)[^'"]*?from\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!);
    const byPath = new Map(all.map((f) => [f.path, f]));
    const resolveLocal = (from: string, spec: string) => {
      const base = join(from, '..', spec).replace(/\\/g, '/');
      return ['.ts', '.tsx', '/index.ts'].map((ext) => base + ext).find((p) => byPath.has(p));
    };
    const reached = new Set<string>();
    const heavy: string[] = [];
    const visit = (path: string, chain: string[]) => {
      if (reached.has(path)) return;
      reached.add(path);
      for (const spec of staticImports(path)) {
        if (/^(cmdk|radix-ui|@radix-ui\/)/.test(spec)) heavy.push([...chain, path, spec].join(' → '));
        else if (spec.startsWith('.')) {
          const next = resolveLocal(path, spec);
          if (next) visit(next, [...chain, path]);
        }
      }
    };
    visit('index.ts', []);
    expect(reached.size).toBeGreaterThan(50);
    expect(reached.has('components/slash/SlashCombobox.tsx')).toBe(true);
    expect(heavy).toEqual([]);
  });
});
