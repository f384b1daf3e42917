import { catalogNode, type CatalogNode } from '../catalogNodes';

/**
 * The Anthropic driver's default model (`DEFAULT_ANTHROPIC_MODEL`; a test
 * keeps the two equal). Kept here so the browser entry lists models without
 * loading the request builder.
 */
export const DEFAULT_MODEL_ID = 'claude-sonnet-5-5';

/**
 * The model ids `@anthropic-ai/sdk` 1.10.0 knows (its `Model` type), in the
 * SDK's order. `models.test.ts` checks this list against the installed SDK.
 */
export const ANTHROPIC_MODEL_IDS = [
  'claude-fable-5-2',
  'claude-mythos-5-2',
  'claude-haiku-5-5',
  'claude-sonnet-5-5',
  'claude-fable-5-1',
  'claude-opus-5-5',
  'claude-mythos-5-1',
  'claude-sonnet-5',
  'claude-fable-5',
  'claude-mythos-5',
  'claude-opus-5',
  'claude-opus-4-8',
  'claude-opus-4-7',
  'claude-mythos-preview',
  'claude-opus-4-6',
  'claude-sonnet-4-6',
  'claude-haiku-4-5',
  'claude-haiku-4-5-20251001',
  'claude-opus-4-5',
  'claude-opus-4-5-20251101',
  'claude-sonnet-4-5',
  'claude-sonnet-4-5-20250929',
] as const;

/** Models the SDK warns about at run time, with their end of life. */
export const DEPRECATED_MODELS: Readonly<Record<string, string>> = {
  'claude-sonnet-4-5': '2026-11-30',
  'claude-sonnet-4-5-20250929': '2026-11-30',
};

/** The id of the deterministic model that needs no key. */
export const OFFLINE_MODEL_ID = 'offline';

/** What a composer `modelName` asks for. */
export type ModelSelection = { kind: 'default' } | { kind: 'offline' } | { kind: 'model'; id: string };

/**
 * Reads the composer's `modelName`: a node path like `Model/claude-sonnet-5-5`
 * (any namespace; the id is the last segment) or a bare model id.
 * @example
 * selectModel('Model/claude-opus-5-5'); // → { kind: 'model', id: 'claude-opus-5-5' }
 * selectModel('Model/offline');         // → { kind: 'offline' }
 */
export function selectModel(modelName: string | undefined): ModelSelection {
  const id = (modelName ?? '').trim().split('/').pop() ?? '';
  if (!id) return { kind: 'default' };
  return id === OFFLINE_MODEL_ID ? { kind: 'offline' } : { kind: 'model', id };
}

/**
 * One Model node per id the SDK knows, the default model first (`sort:order`),
 * then the SDK's order, then the offline model. With `served` (the models a
 * driver names, as the OpenAI-compatible one does: `ModelDriver.models`),
 * those are listed instead, the first as the default, each under its own id.
 * @example
 * modelNodes(); // → [Model/claude-sonnet-5-5, Model/claude-fable-5-2, …, Model/offline]
 * modelNodes(undefined, ['llama3.2']); // → [Model/llama3.2, Model/offline]
 */
export function modelNodes(defaultModel: string = DEFAULT_MODEL_ID, served?: readonly string[]): CatalogNode[] {
  const listed = served?.filter((id) => /^[\w.:-]+$/.test(id) && id !== OFFLINE_MODEL_ID) ?? [];
  const ids: string[] = listed.length ? [...new Set(listed)] : [defaultModel, ...ANTHROPIC_MODEL_IDS.filter((id) => id !== defaultModel)];
  const nodes = ids.map((id, i) =>
    catalogNode(`Model/${id}`, {
      nodeType: 'Model',
      name: listed.length ? id : modelTitle(id),
      description: listed.length ? servedDescription(i === 0) : modelDescription(id, id === defaultModel),
      order: i === 0 ? -1 : i,
      keywords: listed.length ? ['openai', 'local', id] : ['claude', 'anthropic', id],
    }),
  );
  nodes.push(
    catalogNode(`Model/${OFFLINE_MODEL_ID}`, {
      nodeType: 'Model',
      name: 'Offline model',
      description: 'Deterministic, needs no key; runs in the page.',
      order: ids.length,
      keywords: ['offline', 'local', 'no key'],
    }),
  );
  return nodes;
}

/** `claude-haiku-4-5-20251001` → `Claude Haiku 4.5 (2025-10-01)`; `claude-mythos-preview` → `Claude Mythos Preview`. */
export function modelTitle(id: string): string {
  const parts = id.split('-');
  const words: string[] = [];
  const version: string[] = [];
  let snapshot = '';
  for (const part of parts) {
    if (/^\d{8}$/.test(part)) snapshot = `${part.slice(0, 4)}-${part.slice(4, 6)}-${part.slice(6)}`;
    else if (/^\d+$/.test(part)) version.push(part);
    else words.push(part.charAt(0).toUpperCase() + part.slice(1));
  }
  return [...words, version.join('.')].filter(Boolean).join(' ') + (snapshot ? ` (${snapshot})` : '');
}

function servedDescription(isDefault: boolean): string {
  return `${isDefault ? 'The default model of this workspace. ' : ''}Served by this workspace's OpenAI-compatible model server.`;
}

function modelDescription(id: string, isDefault: boolean): string {
  const notes: string[] = [];
  if (isDefault) notes.push('The default model of this workspace.');
  if (/-\d{8}$/.test(id)) notes.push(`A pinned snapshot of ${modelTitle(id.replace(/-\d{8}$/, ''))}.`);
  if (id.includes('preview')) notes.push('A preview model.');
  const eol = DEPRECATED_MODELS[id];
  if (eol) notes.push(`Deprecated: end of life ${eol}.`);
  notes.push('Needs a server with an Anthropic API key.');
  return notes.join(' ');
}
