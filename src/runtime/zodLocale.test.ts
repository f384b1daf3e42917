import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// zod keeps its configuration (the locale) on globalThis, shared by classic zod and zod/mini. Classic
// zod installs English as soon as any classic schema is built, which would hide a mini module that
// forgot to, so each test clears the locale and loads the modules afresh.
type ZodGlobal = { __zod_globalConfig?: { localeError?: unknown } };
const zodConfig = () => ((globalThis as ZodGlobal).__zod_globalConfig ??= {});
let saved: unknown;

beforeEach(() => {
  saved = zodConfig().localeError;
  delete zodConfig().localeError;
  vi.resetModules();
});

afterEach(() => {
  zodConfig().localeError = saved;
});

describe('zod/mini messages', () => {
  it('a malformed remote event is explained in the same English as classic zod', async () => {
    const { parseThreadEvent } = await import('./events');
    expect(parseThreadEvent({ type: 'message.delta', seq: 1, ts: 1, message_id: 'm1' })).toEqual({
      ok: false,
      error: 'delta: Invalid input: expected string, received undefined',
    });
    expect(parseThreadEvent({ type: 'message.delta', seq: 1.5, ts: 1, message_id: 'm1', delta: 'x' })).toEqual({
      ok: false,
      error: 'seq: Invalid input: expected int, received number',
    });
    expect(parseThreadEvent({ type: 'view.changed', seq: 2, ts: 1, view: { kind: '' } })).toEqual({
      ok: false,
      error: 'view.kind: Too small: expected string to have >=1 characters',
    });
  });

  it('a malformed result is explained in English when only the envelope is loaded', async () => {
    const { CapabilityResultSchema } = await import('./envelope');
    const parsed = CapabilityResultSchema.safeParse({ content: [{ type: 'text' }] });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([
      'content.0.text: Invalid input: expected string, received undefined',
    ]);
  });

  it('a bad actor is explained in English', async () => {
    const { ActorSchema } = await import('./capabilitySchemas');
    const parsed = ActorSchema.safeParse({ id: 'enricher', name: '' });
    expect(parsed.error?.issues.map((i) => i.message)).toEqual(['Too small: expected string to have >=1 characters']);
  });

  it('keeps a locale the host configured first', async () => {
    zodConfig().localeError = () => 'Ungültige Eingabe';
    const { parseThreadEvent } = await import('./events');
    expect(parseThreadEvent({ type: 'message.delta', seq: 1, ts: 1, message_id: 'm1' })).toEqual({
      ok: false,
      error: 'delta: Ungültige Eingabe',
    });
  });
});

describe('the event contract stays off classic zod', () => {
  // Classic zod cannot be tree-shaken (every schema carries every method), so a browser page that
  // only validates events must not import it through any of these modules.
  const here = dirname(new URL(import.meta.url).pathname);
  const graph = (entry: string): Map<string, string[]> => {
    const seen = new Map<string, string[]>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      const text = readFileSync(file, 'utf8');
      const specifiers = [...text.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'"]*?from\s*['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
      seen.set(file, specifiers);
      for (const s of specifiers) if (s.startsWith('.')) visit(join(dirname(file), `${s}.ts`));
    };
    visit(join(here, entry));
    return seen;
  };

  it('events.ts and everything it imports use zod/mini only', () => {
    const modules = graph('events.ts');
    expect([...modules.keys()].map((f) => relative(here, f)).sort()).toEqual([
      'capabilitySchemas.ts',
      'envelope.ts',
      // The fold's checks (no schemas) that events.ts registers with.
      'eventChecks.ts',
      'events.ts',
      // The event families events.ts declares its union from.
      ...['capabilityRuns', 'citations', 'decisions', 'elicitations', 'feedback', 'fields', 'invocationArgs', 'issues', 'messageFastPath', 'messages', 'modelHistory', 'plain', 'reasoning', 'skills', 'subThreads', 'threadState', 'turns', 'versions'].map((f) => `events/${f}.ts`),
      'zodLocale.ts',
    ]);
    const zodImports = [...modules.values()].flat().filter((s) => s === 'zod' || s.startsWith('zod/'));
    expect(zodImports.length).toBeGreaterThan(0);
    expect(zodImports.filter((s) => s !== 'zod/mini' && s !== 'zod/v4/locales/en.js')).toEqual([]);
  });
});
