import { resultText } from './envelope';
import type { DriverChunk, ModelDriver, ModelMessage, ModelRequest } from './model';
import type { CapabilityInfo } from './registry';

export interface OfflineDriverOptions {
  /** Pause between streamed words, so streaming is visible in a demo. @default 12 */
  delayMs?: number;
}

/**
 * A deterministic model that needs no key: it runs a capability when the
 * user names it (by name or title), reads `key=value` or JSON arguments from
 * the message, reports results in plain words, and otherwise says what it can do.
 * @example
 * const driver = createOfflineDriver({ delayMs: 0 });
 */
export function createOfflineDriver({ delayMs = 12 }: OfflineDriverOptions = {}): ModelDriver {
  return {
    info: { id: 'offline', label: 'Offline model' },
    async *respond(request: ModelRequest): AsyncIterable<DriverChunk> {
      const last = request.messages[request.messages.length - 1];
      if (!last) return;
      if (last.role === 'tool') {
        yield* words(describeResult(last), delayMs, request.signal);
        return;
      }
      if (last.role !== 'user') return;
      const match = findNamedCapability(last.text, request.capabilities);
      if (match) {
        yield { type: 'invoke', capability: match.capability.name, args: readArguments(last.text, match) };
        return;
      }
      yield* words(describeAbilities(request.capabilities), delayMs, request.signal);
    },
  };
}

interface NamedMatch {
  capability: CapabilityInfo;
  /** Where the name or title ends in the message. */
  end: number;
}

/** The capability named in the text, by machine name first, then by title; the longest mention wins. */
export function findNamedCapability(text: string, capabilities: readonly CapabilityInfo[]): NamedMatch | null {
  const lower = text.toLowerCase();
  let best: (NamedMatch & { length: number }) | null = null;
  for (const capability of capabilities) {
    for (const needle of [capability.name, capability.title]) {
      const at = indexOfWord(lower, needle.toLowerCase());
      if (at !== -1 && (!best || needle.length > best.length)) {
        best = { capability, end: at + needle.length, length: needle.length };
      }
    }
  }
  return best && { capability: best.capability, end: best.end };
}

function indexOfWord(haystack: string, needle: string): number {
  if (!needle) return -1;
  let from = 0;
  while (true) {
    const at = haystack.indexOf(needle, from);
    if (at === -1) return -1;
    const before = at === 0 ? ' ' : haystack[at - 1]!;
    const after = haystack[at + needle.length] ?? ' ';
    if (!/[\p{L}\p{N}_]/u.test(before) && !/[\p{L}\p{N}_]/u.test(after)) return at;
    from = at + 1;
  }
}

type JsonSchemaProperty = { type?: string | string[] };

/** Arguments from the message: a JSON object, `key=value` / `key: value` pairs, or the rest of the sentence. */
export function readArguments(text: string, match: NamedMatch): Record<string, unknown> {
  const properties = (match.capability.inputSchema.properties ?? {}) as Record<string, JsonSchemaProperty>;
  const json = text.match(/\{[\s\S]*\}/);
  if (json) {
    try {
      const value: unknown = JSON.parse(json[0]);
      if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // Not JSON after all: fall through to key=value pairs.
    }
  }
  const args: Record<string, unknown> = {};
  const pair = /([A-Za-z_][\w.-]*)\s*(?:=|:)\s*("([^"]*)"|'([^']*)'|[^\s,;]+)/g;
  for (let m = pair.exec(text); m; m = pair.exec(text)) {
    const key = m[1]!;
    if (!(key in properties)) {
      // Not an argument (e.g. "Add: a=1"): read on from its value, which may hold a real pair.
      pair.lastIndex = m.index + key.length;
      continue;
    }
    const raw = m[3] ?? m[4] ?? m[2]!;
    args[key] = coerce(raw, properties[key]!);
  }
  const keys = Object.keys(properties);
  const onlyString = keys.length === 1 && typeOf(properties[keys[0]!]!) === 'string';
  if (Object.keys(args).length === 0 && onlyString) {
    const rest = text.slice(match.end).replace(/^[\s:,.\-–—]+/, '').trim();
    if (rest) args[keys[0]!] = rest;
  }
  return args;
}

function typeOf(property: JsonSchemaProperty): string | undefined {
  return Array.isArray(property.type) ? property.type.find((t) => t !== 'null') : property.type;
}

function coerce(raw: string, property: JsonSchemaProperty): unknown {
  switch (typeOf(property)) {
    case 'number':
    case 'integer': {
      const n = Number(raw.replace(/[?!.,;]+$/, ''));
      return Number.isFinite(n) && raw.trim() !== '' ? n : raw;
    }
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : raw;
    default:
      return raw;
  }
}

function describeResult(message: Extract<ModelMessage, { role: 'tool' }>): string {
  const text = resultText(message.result).trim();
  if (message.result.isError) return `I couldn't finish ${message.title}. ${text}`;
  return text ? `${message.title} is done. ${text}` : `${message.title} is done.`;
}

function describeAbilities(capabilities: readonly CapabilityInfo[]): string {
  if (capabilities.length === 0) return 'I am the offline model, and this workspace has no capabilities yet.';
  const list = capabilities.map((c) => `${c.title} (${c.description.replace(/\.$/, '')})`).join('; ');
  return `I am the offline model: name what you want run and I will run it. I can do: ${list}.`;
}

async function* words(text: string, delayMs: number, signal: AbortSignal): AsyncIterable<DriverChunk> {
  const parts = text.match(/\S+\s*/g) ?? [];
  for (const part of parts) {
    if (signal.aborted) return;
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    yield { type: 'text', text: part };
  }
}
