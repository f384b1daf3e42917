import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The sources keep their SDKs to themselves: `invoke` runs an MCP or script
 * capability through the handler its descriptor carries, so the browser
 * entry (`.`) never loads yaml, the MCP SDK or Node code, even transitively.
 */
const src = new URL('../../', import.meta.url).pathname;

function resolveLocal(from: string, spec: string): string | null {
  const base = join(dirname(from), spec);
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) if (existsSync(candidate)) return candidate;
  return null;
}

/** Every module a file loads at run time (type-only imports are erased), following local files. */
function runtimeGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(file, 'utf8');
    const specs = [
      ...text.matchAll(/(?:^|\n)\s*(?:import|export)(?!\s+type\b)[^'";]*?from\s*['"]([^'"]+)['"]/g),
      ...text.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g),
      ...text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g),
    ].map((m) => m[1]!);
    for (const spec of specs) {
      if (!spec.startsWith('.')) {
        packages.add(spec);
        continue;
      }
      const next = resolveLocal(file, spec);
      if (next) visit(next);
    }
  };
  visit(join(src, entry));
  return { files, packages };
}

describe('entry isolation', () => {
  it('the browser entry loads no SKILL.md parser, MCP SDK, yaml or Node code', () => {
    const { files, packages } = runtimeGraph('index.ts');
    const local = [...files].map((f) => relative(src, f));
    expect(local).toContain('runtime/invoke.ts');
    expect(local).toContain('runtime/postconditions.ts');
    expect(local.filter((f) => /^runtime\/(sources\/(?!template)|node\/)/.test(f))).toEqual([]);
    // The one exception, a chunk of its own: the MCP App frame's import() of the Apps host bridge (api/importRules.test.ts checks it is dynamic).
    const loaded = [...packages].filter((p) => p !== '@modelcontextprotocol/ext-apps/app-bridge');
    expect(loaded.filter((p) => /^(yaml|@modelcontextprotocol\/|@anthropic-ai\/|node:|picomatch)/.test(p))).toEqual([]);
  });

  it('the runtime entry loads no SDK (the MCP client is chatsurface/mcp) and no Node code', () => {
    expect([...runtimeGraph('mcp.ts').packages]).toContain('@modelcontextprotocol/client');
    const { files, packages } = runtimeGraph('runtime/index.ts');
    expect([...packages].filter((p) => /^(@modelcontextprotocol\/|@anthropic-ai\/)/.test(p))).toEqual([]);
    expect([...files].map((f) => relative(src, f)).filter((f) => f.startsWith('runtime/node/'))).toEqual([]);
    expect([...packages].filter((p) => p.startsWith('node:'))).toEqual([]);
  });
});
