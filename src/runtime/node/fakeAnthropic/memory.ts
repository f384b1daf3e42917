/**
 * What the service remembers between requests: the turns it paused (`pause_turn`), which a
 * request may continue, and the turns it refused, which a later request may not carry again.
 * Assistant content is compared normalised (`normalise`).
 */

export interface ServiceMemory {
  /** Normalised assistant content the fake paused on: a request may end with exactly one of these. */
  readonly paused: ReadonlySet<string>;
  /** True when the request still carries a refused prompt or refused output. */
  carriesRefused(body: any): boolean;
  /** Remembers a paused reply: the request's final (paused) assistant turn continued by `blocks`. */
  rememberPause(body: any, blocks: readonly any[]): void;
  /** Remembers a refusal: the prompt it answered and the text it gave. */
  rememberRefusal(body: any, blocks: readonly any[]): void;
}

export function createServiceMemory(): ServiceMemory {
  const paused = new Set<string>();
  /** What a refused request carried: a later request with any of it is refused again. */
  const refused = { prompts: new Set<string>(), outputs: new Set<string>() };
  return {
    paused,
    carriesRefused: (body) => carries(body, refused),
    rememberPause(body, blocks) {
      paused.add(normalise([...finalAssistant(body, paused), ...blocks]));
    },
    rememberRefusal(body, blocks) {
      const prompt = lastUserText(body);
      if (prompt) refused.prompts.add(prompt);
      for (const b of blocks) if (b.type === 'text' && b.text.trim()) refused.outputs.add(b.text.trim());
    },
  };
}

/** Assistant content as a comparable string: markers dropped, keys sorted, text without trailing whitespace, blank text left out. */
export function normalise(content: readonly any[]): string {
  const blocks = content
    .map((b) => {
      const { cache_control: _marker, ...rest } = b ?? {};
      return rest.type === 'text' ? { ...rest, text: String(rest.text ?? '').trimEnd() } : rest;
    })
    .filter((b) => b.type !== 'text' || b.text);
  return JSON.stringify(sorted(blocks));
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sorted((value as Record<string, unknown>)[k])]));
  }
  return value;
}

/** The final assistant turn of a request (consecutive assistant messages combined), or none. */
function finalAssistant(body: any, paused: ReadonlySet<string>): any[] {
  const out: any[] = [];
  const messages = (body.messages ?? []) as any[];
  for (let i = messages.length - 1; i >= 0 && messages[i]?.role === 'assistant'; i--) {
    const content = typeof messages[i].content === 'string' ? [{ type: 'text', text: messages[i].content }] : messages[i].content;
    out.unshift(...content);
  }
  return out.length && paused.has(normalise(out)) ? out : [];
}

/** The text of the request's last user message (its last text block): what a refusal answered. */
function lastUserText(body: any): string | null {
  const messages = (body.messages ?? []) as any[];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content.trim() || null;
    const texts = (m.content as any[]).filter((b) => b?.type === 'text').map((b) => String(b.text).trim());
    return texts[texts.length - 1] || null;
  }
  return null;
}

/** True when the request still carries a refused prompt or refused output. */
function carries(body: any, refused: { prompts: ReadonlySet<string>; outputs: ReadonlySet<string> }): boolean {
  if (!refused.prompts.size && !refused.outputs.size) return false;
  for (const m of (body.messages ?? []) as any[]) {
    const texts: string[] = typeof m?.content === 'string' ? [m.content] : ((m?.content ?? []) as any[]).filter((b) => b?.type === 'text').map((b) => String(b.text));
    for (const text of texts) {
      if (m.role === 'user' && refused.prompts.has(text.trim())) return true;
      if (m.role === 'assistant' && [...refused.outputs].some((o) => text.includes(o))) return true;
    }
  }
  return false;
}
