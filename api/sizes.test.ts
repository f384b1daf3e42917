import { describe, expect, it } from 'vitest';
import { check, functionsOf, lineCount } from '../scripts/sizes.mjs';

// Issue 38's "Done when": no source file over 500 lines, no function over 150 (outside data
// tables), measured by `node scripts/sizes.mjs --check`. A file or function that grows past either
// fails here: split it by concept (docs/architecture.md, "Layering").

interface Over {
  files: { path: string; lines: number }[];
  functions: { path: string; name: string; lines: number }[];
}

describe('sizes (scripts/sizes.mjs --check)', () => {
  const over = check() as Over;

  it('no file over 500 lines', () => {
    expect(over.files.map((f) => `${f.path}: ${f.lines}`)).toEqual([]);
  });

  it('no function over 150 lines', () => {
    expect(over.functions.map((f) => `${f.path}: ${f.name} (${f.lines})`)).toEqual([]);
  });

  it('measures functions of every kind, each nested one on its own', () => {
    const text = [
      'export function outer() {', // 1
      '  const inner = () => {', // 2
      '    return 1;', // 3
      '  };', // 4
      '  return inner;', // 5
      '}', // 6
      'class A {', // 7
      '  method() {', // 8
      '    return function named() { return 2; };', // 9
      '  }', // 10
      '}', // 11
      'const value = { handler: function () { return 3; } };', // 12
    ].join('\n');
    const found = (functionsOf('x.ts', text) as { name: string; line: number; lines: number }[]).map((f) => `${f.name}@${f.line}:${f.lines}`);
    expect(found).toEqual(['outer@1:6', 'inner@2:3', 'method@8:3', 'named@9:1', 'handler@12:1']);
    expect(lineCount(text)).toBe(12);
    expect(lineCount(`${text}\n`)).toBe(12);
  });
});
