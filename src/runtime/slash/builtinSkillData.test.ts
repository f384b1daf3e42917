import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_SKILL_NODES } from './builtinSkillData';
import { builtInSkills } from './builtins';

const file = new URL('./builtinSkillData.ts', import.meta.url).pathname;

/** The file's text for the given nodes: the built-in skill files, parsed ahead of time. */
function render(nodes: unknown): string {
  return [
    "import type { CatalogNode } from '../catalogNodes';",
    '',
    '/**',
    ' * The built-in skills (`builtins/*.md`) parsed ahead of time, so the browser',
    ' * entry needs no YAML parser. Generated: after editing a skill file run',
    ' * `UPDATE_BUILTINS=1 npx vitest run src/runtime/slash/builtinSkillData.test.ts`.',
    ' */',
    `export const BUILT_IN_SKILL_NODES: readonly CatalogNode[] = ${JSON.stringify(nodes, null, 2)};`,
    '',
  ].join('\n');
}

describe('the built-in skills parsed ahead of time', () => {
  it('equal the Markdown files parsed now (UPDATE_BUILTINS=1 rewrites them)', () => {
    const parsed = builtInSkills();
    if (process.env.UPDATE_BUILTINS) writeFileSync(file, render(parsed));
    expect(BUILT_IN_SKILL_NODES).toEqual(parsed);
    expect(readFileSync(file, 'utf8')).toBe(render(parsed));
  });
});
