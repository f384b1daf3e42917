import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { staticClosure } from '../test/staticImports';

// The offline model's engine (the capability index with MiniSearch, argument filling, the replies)
// is loaded the first time the driver answers, so a local-workspace page that never sends does not
// ship it. This walks the static imports (not `import()`) from the thread host, as a bundler does.
const here = dirname(fileURLToPath(import.meta.url));

describe('the offline engine loads on first answer', () => {
  it('is not among the static imports of the thread host', () => {
    const closure = [...staticClosure(resolve(here, 'host/threadHost.ts'))];
    expect(closure).toContain(resolve(here, 'offlineDriver.ts'));
    expect(closure).not.toContain('minisearch');
    expect(closure).not.toContain(resolve(here, 'engine/offline.ts'));
    expect(closure).not.toContain(resolve(here, 'engine/understand.ts'));
  });

  it('is imported by the driver with import()', () => {
    expect(readFileSync(resolve(here, 'offlineDriver.ts'), 'utf8')).toMatch(/import\('\.\/engine\/offline'\)/);
  });
});
