import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** `import … from '…'`, `export … from '…'` and `import '…'`; not `import type`, not `import()`. */
const STATIC = /(?:^|\n)\s*(?:import|export)\s+(?!type\b)[^;'"]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;

/**
 * What `entry` (an absolute path) reaches through static imports, as a bundler puts them in the
 * same script: the source files (absolute paths, `.ts` or `.tsx`) and the packages (bare
 * specifiers). For tests that a part loads on first use (`import()`), not with the page.
 */
export function staticClosure(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(STATIC)) {
      const spec = (m[1] ?? m[2])!;
      if (!spec.startsWith('.')) {
        seen.add(spec);
        continue;
      }
      const base = resolve(dirname(file), spec);
      const path = [`${base}.ts`, `${base}.tsx`, base].find((p) => /\.tsx?$/.test(p) && existsSync(p));
      if (path) visit(path);
    }
  };
  visit(entry);
  return seen;
}
