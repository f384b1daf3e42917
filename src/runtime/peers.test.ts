import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isMissingModule, MissingPeerError, OPTIONAL_PEERS } from './peers';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

describe('optional peers', () => {
  const names = Object.keys(OPTIONAL_PEERS);

  it('package.json declares exactly the listed packages as optional peers, installed here for the tests only', () => {
    const optional = Object.entries(pkg.peerDependenciesMeta).filter(([, meta]) => meta.optional).map(([name]) => name);
    expect(optional.sort()).toEqual([...names].sort());
    for (const name of names) {
      expect(pkg.dependencies[name], `${name} must not be a dependency`).toBeUndefined();
      expect(pkg.devDependencies[name], `${name} must be a devDependency, pinned exactly`).toMatch(/^\d+\.\d+\.\d+$/);
      expect(pkg.peerDependencies[name], `${name} must be a peer dependency`).toBe(`^${pkg.devDependencies[name]}`);
    }
  });

  it('a missing package is named with the feature that needs it and the command that installs it', () => {
    const error = new MissingPeerError('better-sqlite3', new Error("Cannot find module 'better-sqlite3'"));
    expect(error.message).toBe('The SQLite stores of chatsurface/server needs the package "better-sqlite3", which is not installed. Install it beside chatsurface: npm install better-sqlite3');
    expect(error.package).toBe('better-sqlite3');
  });

  it('tells a missing package from a package that failed for another reason', () => {
    const missing = Object.assign(new Error("Cannot find module 'pg'\nRequire stack: …"), { code: 'MODULE_NOT_FOUND' });
    const missingEsm = Object.assign(new Error("Cannot find package 'hono' imported from /app/x.js"), { code: 'ERR_MODULE_NOT_FOUND' });
    const inner = Object.assign(new Error("Cannot find module './build/Release/better_sqlite3.node'"), { code: 'MODULE_NOT_FOUND' });
    expect(isMissingModule(missing, 'pg')).toBe(true);
    expect(isMissingModule(missingEsm, 'hono')).toBe(true);
    const missingInViteBuild = new Error('Could not resolve "@ag-ui/client" imported by "chatsurface". Is it installed?');
    expect(isMissingModule(missingInViteBuild, '@ag-ui/client')).toBe(true);
    expect(isMissingModule(missingInViteBuild, '@ag-ui/core')).toBe(false);
    expect(isMissingModule(inner, 'better-sqlite3')).toBe(false);
    expect(isMissingModule(new TypeError('boom'), 'pg')).toBe(false);
  });
});

/** The packages an entry reaches through static value imports (`import type` is erased; `import()` is a later chunk). */
function reachedPackages(entry: string): Map<string, string> {
  const src = new URL('../', import.meta.url).pathname;
  const seen = new Set<string>();
  const packages = new Map<string, string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)(?!\s+type\s)[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)) {
      const spec = (m[1] ?? m[2])!;
      if (!spec.startsWith('.')) {
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
        if (!packages.has(name)) packages.set(name, file.slice(src.length));
        continue;
      }
      const base = join(dirname(file), spec);
      const next = ['.ts', '.tsx', '/index.ts'].map((ext) => base + ext).find((p) => existsSync(p));
      if (next) visit(next);
    }
  };
  visit(join(src, entry));
  return packages;
}

describe('the browser entries need no optional peer', () => {
  for (const entry of ['index.ts', 'runtime/index.ts', 'internal.ts']) {
    it(`${entry} reaches only dependencies and React`, () => {
      const reached = reachedPackages(entry);
      expect(reached.size).toBeGreaterThan(1);
      const outside = [...reached].filter(([name]) => !(name in pkg.dependencies) && name !== 'react' && name !== 'react-dom').map(([name, from]) => `${name} (from ${from})`);
      expect(outside).toEqual([]);
    });
  }

  it('the MCP and Anthropic entries are where their SDKs are reached', () => {
    expect([...reachedPackages('mcp.ts').keys()]).toContain('@modelcontextprotocol/client');
    expect([...reachedPackages('anthropic.ts').keys()]).toContain('@anthropic-ai/sdk');
  });
});
