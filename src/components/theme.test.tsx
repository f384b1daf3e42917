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
    if (prelude.startsWith('@media') || prelude.startsWith('@supports') || prelude.startsWith('@container')) out.push(...selectors(body));
    else if (!prelude.startsWith('@keyframes')) out.push(...splitTopLevel(prelude));
    i = j;
  }
  return out;
}

/** `text` split where `at` says, outside parentheses and brackets (`:is(a, b)` and `[x='a b']` stay whole); empty parts dropped. */
function splitOutside(text: string, at: (ch: string) => boolean): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    if (depth === 0 && at(ch)) {
      if (current.trim()) parts.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (current.trim()) parts.push(current.trim());
  return parts;
}

/** A selector list split at its commas. */
const splitTopLevel = (list: string): string[] => splitOutside(list, (ch) => ch === ',');

/** A selector's compound selectors, split at its combinators. */
const compounds = (selector: string): string[] => splitOutside(selector, (ch) => ch === ' ' || ch === '>' || ch === '+' || ch === '~');

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
