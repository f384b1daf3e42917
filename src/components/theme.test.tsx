import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The default theme never styles the host page: every selector sits under the surface's root. */
// Tests run from the repository root (jsdom gives import.meta.url an http: address).
const css = readFileSync(join(process.cwd(), 'src/styles.css'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');

/** Selectors of every style rule, descending into @media, skipping @keyframes. */
function selectors(source: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < source.length) {
    const open = source.indexOf('{', i);
    if (open === -1) break;
    const prelude = source.slice(i, open).trim();
    let depth = 1;
    let j = open + 1;
    while (depth > 0 && j < source.length) {
      if (source[j] === '{') depth++;
      else if (source[j] === '}') depth--;
      j++;
    }
    const body = source.slice(open + 1, j - 1);
    if (prelude.startsWith('@media') || prelude.startsWith('@supports')) out.push(...selectors(body));
    else if (!prelude.startsWith('@keyframes')) out.push(...splitTopLevel(prelude));
    i = j;
  }
  return out;
}

/** A selector list split at commas outside parentheses (`:is(a, b)` stays whole). */
function splitTopLevel(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let k = 0; k < list.length; k++) {
    if (list[k] === '(') depth++;
    else if (list[k] === ')') depth--;
    else if (list[k] === ',' && depth === 0) {
      parts.push(list.slice(start, k).trim());
      start = k + 1;
    }
  }
  parts.push(list.slice(start).trim());
  return parts;
}

/** A selector's compound selectors, split at combinators outside brackets and parentheses. */
function compounds(selector: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of selector) {
    if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    if (depth === 0 && (ch === ' ' || ch === '>' || ch === '+' || ch === '~')) {
      if (current) out.push(current);
      current = '';
    } else current += ch;
  }
  if (current) out.push(current);
  return out;
}

describe('styles.css', () => {
  it('scopes every rule under [data-chat-surface]', () => {
    const all = selectors(css);
    expect(all.length).toBeGreaterThan(100);
    expect(all.filter((s) => !s.startsWith('[data-chat-surface]'))).toEqual([]);
  });

  it('defines light and dark values for every colour variable', () => {
    const colours = [...css.matchAll(/(--cs-[a-z-]+):\s*light-dark\(([^,]+),\s*([^)]+)\)/g)];
    expect(colours.map((m) => m[1])).toEqual(expect.arrayContaining(['--cs-bg', '--cs-fg', '--cs-accent', '--cs-danger', '--cs-warning']));
    for (const [, name, light, dark] of colours) expect(light!.trim(), name).not.toBe(dark!.trim());
    expect(css).toContain("[data-chat-surface][data-theme='dark']");
  });

  // A rule that keys an element's look on an ancestor's data-state makes every data-state change
  // (a ↓ in the slash list, a card finishing) restyle the whole subtree of the element it changes
  // on, not that element alone: the browser invalidates by attribute name, not value.
  it("keys no rule on an ancestor's data-state", () => {
    const onAncestor = selectors(css).filter((selector) => compounds(selector).slice(0, -1).some((compound) => compound.includes('[data-state')));
    expect(onAncestor).toEqual([]);
  });

  it('stops animations for people who ask for reduced motion', () => {
    expect(css).toMatch(/@media \(prefers-reduced-motion: reduce\)\s*{\s*\[data-chat-surface\] \*/);
  });
});
