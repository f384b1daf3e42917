import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ANTHROPIC_MODEL } from '../anthropic/request';
import { builtInNodes } from './builtinNodes';
import { createCatalog } from './catalog';
import { ANTHROPIC_MODEL_IDS, DEFAULT_MODEL_ID, DEPRECATED_MODELS, modelTitle, selectModel } from './models';

const sdk = new URL('../../../node_modules/@anthropic-ai/sdk/', import.meta.url).pathname;
const sdkTypes = readFileSync(join(sdk, 'resources/messages/messages.d.ts'), 'utf8');
const sdkCode = readFileSync(join(sdk, 'resources/messages/messages.js'), 'utf8');

describe('the models /model lists', () => {
  it('are exactly the ids of the installed SDK’s Model type, in its order', () => {
    const union = /export type Model = ([^;]+);/.exec(sdkTypes)![1]!;
    const ids = [...union.matchAll(/'([^']+)'/g)].map((m) => m[1]);
    expect(ids.length).toBeGreaterThan(10);
    expect([...ANTHROPIC_MODEL_IDS]).toEqual(ids);
  });

  it('mark the models the SDK warns are deprecated', () => {
    const table = /const DEPRECATED_MODELS = \{([^}]*)\}/.exec(sdkCode)![1]!;
    expect(Object.keys(DEPRECATED_MODELS).sort()).toEqual([...table.matchAll(/'([^']+)':/g)].map((m) => m[1]).sort());
  });

  it('start with the Anthropic driver’s default model and end with the offline model', () => {
    expect(DEFAULT_MODEL_ID).toBe(DEFAULT_ANTHROPIC_MODEL);
    expect(ANTHROPIC_MODEL_IDS).toContain(DEFAULT_MODEL_ID);
    const listed = createCatalog(builtInNodes()).query('namespace:Model nodeType:Model sort:order', { user: 'me', space: 'default' });
    expect(listed[0]).toMatchObject({ path: 'Model/claude-sonnet-5-5', name: 'Claude Sonnet 5.5', description: expect.stringContaining('default') });
    expect(listed.at(-1)).toMatchObject({ path: 'Model/offline', name: 'Offline model' });
    expect(listed).toHaveLength(ANTHROPIC_MODEL_IDS.length + 1);
    expect(new Set(listed.map((n) => n.path)).size).toBe(listed.length);
    expect(listed.find((n) => n.id === 'claude-sonnet-4-5')?.description).toContain('Deprecated: end of life 2026-11-30.');
  });

  it('can put another default first', () => {
    const listed = createCatalog(builtInNodes({ defaultModel: 'claude-opus-4-8' })).query('nodeType:Model sort:order', { user: 'me', space: 'default' });
    expect(listed.slice(0, 2).map((n) => n.id)).toEqual(['claude-opus-4-8', 'claude-fable-5-2']);
  });

  it('list the models a driver names instead (an OpenAI-compatible server), the first as the default, then the offline model', () => {
    const listed = createCatalog(builtInNodes({ models: ['llama3.2', 'qwen2.5:7b', 'llama3.2'] })).query('nodeType:Model sort:order', { user: 'me', space: 'default' });
    expect(listed.map((n) => n.path)).toEqual(['Model/llama3.2', 'Model/qwen2.5:7b', 'Model/offline']);
    expect(listed[0]).toMatchObject({ name: 'llama3.2', description: expect.stringContaining('default') });
    expect(listed.some((n) => n.id.startsWith('claude'))).toBe(false);
    expect(selectModel(listed[1]!.path)).toEqual({ kind: 'model', id: 'qwen2.5:7b' });
  });

  it.each([
    ['claude-haiku-4-5-20251001', 'Claude Haiku 4.5 (2025-10-01)'],
    ['claude-mythos-preview', 'Claude Mythos Preview'],
    ['claude-opus-5', 'Claude Opus 5'],
  ])('names %s “%s”', (id, title) => {
    expect(modelTitle(id)).toBe(title);
  });
});

describe('selectModel: what the composer’s modelName asks for', () => {
  it.each([
    ['Model/claude-opus-5-5', { kind: 'model', id: 'claude-opus-5-5' }],
    ['acme/Model/claude-haiku-5-5', { kind: 'model', id: 'claude-haiku-5-5' }],
    ['claude-opus-4-8', { kind: 'model', id: 'claude-opus-4-8' }],
    ['Model/offline', { kind: 'offline' }],
    ['', { kind: 'default' }],
    [undefined, { kind: 'default' }],
  ])('%s', (modelName, selection) => {
    expect(selectModel(modelName)).toEqual(selection);
  });
});
