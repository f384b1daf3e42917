import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Extended thinking as the service treats it: the request's `thinking` parameter and what it
 * rules out (a small or too large budget, `temperature`, `top_k`, a forcing `tool_choice`), the
 * signatures the fake puts on the thinking it sends (an HMAC of the text under a key of this
 * fake's own) and checks on the blocks that come back, and the rule that the assistant message
 * a tool loop continues opens with its thinking. Each problem in the API's own words.
 */

const DOCS = 'https://docs.claude.com/en/docs/build-with-claude/extended-thinking';

/** Signs and checks thinking blocks: what this fake sent comes back valid, anything changed does not. */
export interface ThinkingSigner {
  /** The signature of a thinking block's text. */
  sign(thinking: string): string;
  /** An opaque `redacted_thinking` payload (it carries its own check). */
  redact(hidden: string): string;
  /** True when a block that came back is one this fake sent, unmodified. */
  verify(block: any): boolean;
}

export function createThinkingSigner(key: Buffer = randomBytes(32)): ThinkingSigner {
  const mac = (kind: string, text: string) => createHmac('sha256', key).update(`${kind}\n${text}`).digest('base64url');
  const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
  return {
    sign: (thinking) => `fake_sig_${mac('thinking', thinking)}`,
    redact(hidden) {
      const payload = Buffer.from(hidden).toString('base64url');
      return `fake_redacted_${payload}.${mac('redacted', payload)}`;
    },
    verify(block) {
      if (block?.type === 'thinking') return typeof block.thinking === 'string' && typeof block.signature === 'string' && same(block.signature, `fake_sig_${mac('thinking', block.thinking)}`);
      if (block?.type === 'redacted_thinking') {
        const match = typeof block.data === 'string' ? /^fake_redacted_([A-Za-z0-9_-]*)\.([A-Za-z0-9_-]+)$/.exec(block.data) : null;
        return !!match && same(match[2]!, mac('redacted', match[1]!));
      }
      return true;
    },
  };
}

/** True when the request turns extended thinking on. */
export function thinkingEnabled(body: any): boolean {
  return body?.thinking?.type === 'enabled';
}

/** The `thinking` parameter and the parameters it rules out; null when they are fine. */
export function thinkingParameterProblem(body: any): string | null {
  const thinking = body.thinking;
  if (thinking === undefined) return null;
  if (!thinking || typeof thinking !== 'object' || (thinking.type !== 'enabled' && thinking.type !== 'disabled')) {
    return `thinking: Input tag '${String(thinking?.type)}' found using 'type' does not match any of the expected tags: 'enabled', 'disabled'`;
  }
  if (thinking.type === 'disabled') return null;
  const budget = thinking.budget_tokens;
  if (budget === undefined) return 'thinking.enabled.budget_tokens: Field required';
  if (!Number.isInteger(budget)) return 'thinking.enabled.budget_tokens: Input should be a valid integer';
  if (budget < 1024) return 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024';
  if (budget >= body.max_tokens) return `\`max_tokens\` must be greater than \`thinking.budget_tokens\`. Please consult our documentation at ${DOCS}#max-tokens-and-context-window-size`;
  if (body.temperature !== undefined && body.temperature !== 1) return `\`temperature\` may only be set to 1 when thinking is enabled. Please consult our documentation at ${DOCS}#feature-compatibility`;
  if (body.top_k !== undefined) return `\`top_k\` may not be set when thinking is enabled. Please consult our documentation at ${DOCS}#feature-compatibility`;
  const choice = body.tool_choice?.type;
  if (choice === 'any' || choice === 'tool') return 'Thinking may not be enabled when tool_choice forces tool use.';
  return null;
}

/** Where a content block is: message `m`, block `b`. */
type Placed = { block: any; m: number; b: number };

/** A thinking or redacted block that this fake did not send as it is now; null when all are its own. */
export function signatureProblem(blocks: readonly Placed[], signer: ThinkingSigner): string | null {
  for (const { block, m, b } of blocks) {
    if (block.type !== 'thinking' && block.type !== 'redacted_thinking') continue;
    if (signer.verify(block)) continue;
    return block.type === 'thinking' ? `messages.${m}.content.${b}: Invalid \`signature\` in \`thinking\` block` : `messages.${m}.content.${b}: Invalid \`data\` in \`redacted_thinking\` block`;
  }
  return null;
}

/**
 * With thinking on, the assistant message that a tool loop continues (the one before a final
 * user message of tool results), or a final assistant message the request continues, must open
 * with a thinking block.
 */
export function loopThinkingProblem(turns: readonly { role: 'user' | 'assistant'; blocks: Placed[] }[]): string | null {
  const last = turns[turns.length - 1];
  if (!last) return null;
  const continued = last.role === 'assistant' ? last : last.blocks[0]?.block?.type === 'tool_result' ? turns[turns.length - 2] : undefined;
  if (!continued || continued.role !== 'assistant') return null;
  const first = continued.blocks[0];
  if (!first || first.block.type === 'thinking' || first.block.type === 'redacted_thinking') return null;
  return (
    `messages.${first.m}.content.${first.b}.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(first.block.type)}\`. ` +
    'When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). ' +
    `We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at ${DOCS}`
  );
}
