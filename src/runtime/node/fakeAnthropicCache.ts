import { createHash } from 'node:crypto';

/**
 * Anthropic's prompt-cache rule, for a fake Messages API: the prompt is the
 * sequence tools → system → messages, cut into blocks; a request may mark up
 * to 4 blocks with `cache_control`. For each breakpoint the longest earlier
 * cached prefix ending within 20 blocks before it is read; the prefix up to
 * the last breakpoint is then written (when it reaches the minimum size).
 * Markers are not part of the prefix: they may move from turn to turn.
 * Tokens are estimated as UTF-8 bytes / 4 of each block's JSON.
 */

export interface CacheUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  /** Blocks marked with `cache_control`. */
  breakpoints: number;
  /** Estimated tokens of the whole prompt. */
  total_tokens: number;
}

export interface PromptCache {
  /** Accounts one request (and writes its breakpoints), like the API's usage fields. */
  account(body: unknown): CacheUsage;
  /** Forgets every cached prefix. */
  reset(): void;
  /** How many prefixes are cached. */
  readonly size: number;
}

export interface PromptCacheOptions {
  /** Prefixes shorter than this are never written (model-specific on the real API). @default 1024 */
  minTokens?: number;
  /** Blocks a breakpoint looks back for an earlier entry. @default 20 */
  lookback?: number;
}

export function createPromptCache({ minTokens = 1024, lookback = 20 }: PromptCacheOptions = {}): PromptCache {
  const cached = new Set<string>();
  return {
    account(body) {
      const { blocks, breakpoints } = promptBlocks(body);
      const hashes: string[] = [];
      const tokens: number[] = [];
      let hash = '';
      let sum = 0;
      for (const block of blocks) {
        hash = createHash('sha256').update(hash).update('\u0000').update(block).digest('hex');
        sum += estimateTokens(block);
        hashes.push(hash);
        tokens.push(sum);
      }
      let readAt = -1;
      for (const bp of breakpoints) {
        for (let j = bp; j >= 0 && j >= bp - lookback; j--) {
          if (cached.has(hashes[j]!)) {
            readAt = Math.max(readAt, j);
            break;
          }
        }
      }
      const read = readAt >= 0 ? tokens[readAt]! : 0;
      const last = breakpoints.length ? Math.max(...breakpoints) : -1;
      let creation = 0;
      if (last > readAt && tokens[last]! >= minTokens) {
        creation = tokens[last]! - read;
        for (const bp of breakpoints) if (tokens[bp]! >= minTokens) cached.add(hashes[bp]!);
      }
      return {
        input_tokens: sum - read - creation,
        cache_creation_input_tokens: creation,
        cache_read_input_tokens: read,
        breakpoints: breakpoints.length,
        total_tokens: sum,
      };
    },
    reset() {
      cached.clear();
    },
    get size() {
      return cached.size;
    },
  };
}

/** Tokens of a text, estimated as its UTF-8 bytes / 4 (rounded up). */
export function estimateTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, 'utf8') / 4);
}

/**
 * The prompt as blocks in cache order: a header (model, tool_choice), each
 * tool, each system block, each message content block (with its role). The
 * JSON is kept as sent, minus `cache_control`, so an unstable key order
 * shows up as a miss, as on the real API.
 */
export function promptBlocks(body: unknown): { blocks: string[]; breakpoints: number[] } {
  const b = (body ?? {}) as { model?: unknown; tool_choice?: unknown; tools?: unknown[]; system?: unknown; messages?: { role?: unknown; content?: unknown }[] };
  const blocks: string[] = [JSON.stringify({ model: b.model ?? null, tool_choice: b.tool_choice ?? null })];
  const breakpoints: number[] = [];
  const add = (value: unknown, prefix = '') => {
    if (value && typeof value === 'object' && 'cache_control' in value && (value as { cache_control?: unknown }).cache_control) {
      breakpoints.push(blocks.length);
    }
    blocks.push(prefix + JSON.stringify(strip(value)));
  };
  for (const tool of b.tools ?? []) add(tool);
  if (typeof b.system === 'string') add({ type: 'text', text: b.system });
  else for (const block of (b.system as unknown[] | undefined) ?? []) add(block);
  for (const message of b.messages ?? []) {
    const role = `${String(message.role)}:`;
    if (typeof message.content === 'string') add({ type: 'text', text: message.content }, role);
    else for (const block of (message.content as unknown[] | undefined) ?? []) add(block, role);
  }
  return { blocks, breakpoints };
}

function strip(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const { cache_control: _marker, ...rest } = value as Record<string, unknown>;
  return rest;
}
