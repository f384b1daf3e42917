import type { Suggestion } from '../anticipation';
import { canonicalJson, sortKeys } from '../canonicalJson';
import type { ActiveSkill, Alignment, CorpusPassage, Route, ViolationNote } from '../model';
import type { CapabilityInfo } from '../registry';

/**
 * The prompt slabs, provider-neutral and deterministic: the same inputs give
 * the same bytes, with no clock, no ids and sorted keys, so a cached prefix
 * survives from turn to turn. Drivers map them onto their API (see
 * `buildAnthropicRequest`).
 *
 * [1] spine · [2] capability schemas · [3] active skills · [4] reminders —
 * cacheable — [5] suggested next verbs · [6] thread · [7] retrieved corpus ·
 * [8] the user's message.
 */

/** A tool definition in JSON Schema terms (slab [2] and the engine's own verbs). */
export interface ToolSchema {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

/** Slab [1]: framing, the three intents, the router and the alignment rule. */
export function spineSlab(alignment: Alignment): string {
  return [
    'You are the assistant of a chat embedded in an application. You act through the workspace\'s capabilities, which are your tools; the user never has to name a tool, fill a schema or know about jobs.',
    '',
    'Each turn has exactly one intent:',
    '- answer: reply in plain words and call no tool;',
    `- propose: call ${CONTROL_TOOL_NAMES.propose} with one capability and its arguments; the user accepts or dismisses it;`,
    '- invoke: call a capability. A read\'s result comes back to you: go on until you can answer. A change that needs approval waits for the user; a denial comes back as an error result: say so and do not retry it.',
    'Never answer and invoke in the same message: when you call a tool, call it without commentary, then report what it returned.',
    '',
    alignment === 'strict'
      ? 'Alignment is strict: run only capabilities the user named; propose anything else. The workspace turns an unnamed call into a proposal.'
      : 'Alignment is loose: when one capability clearly matches the request, invoke it; when several could, propose the best one.',
    '',
    'Intent routing: requests to compare, find, look up, pull or summarize something, or to act right now, are one-shot. Requests to watch, track, monitor, notify the user when something happens, repeat every day or week, keep an eye on something or follow it over time are standing: hand them to the host with ' +
      `${CONTROL_TOOL_NAMES.standing} (this application does not build trackers itself). When a request could be either, call ${CONTROL_TOOL_NAMES.ask} once with the question "Just this once, or should I keep watching it for you?". Ask at most one question per request.`,
    '',
    'Each user message may begin with context for this turn: <suggested_next_verbs> (verbs the application expects next), <retrieved_corpus> (passages to ground your answer), <quality_violations> (checks that failed after an earlier run) and <intent_router> (how the request was classified). When quality violations are listed, acknowledge them first, in plain words, and offer to run the capability again with corrected arguments; never carry on as if nothing happened.',
    '',
    'Tool results may end with <quality_violation> notes: the run finished but its check failed; tell the user.',
    'Speak of capabilities by their titles, never by machine names. Report results in plain words.',
  ].join('\n');
}

/** Slab [4]: per-organisation reminders, '' when there are none. */
export function remindersSlab(reminders: string): string {
  const text = reminders.trim();
  return text ? `<org_reminders>\n${text}\n</org_reminders>` : '';
}

/** Slab [3]: the whole SKILL.md body of each active skill, in activation order; '' when none. */
export function skillsSlab(skills: readonly ActiveSkill[]): string {
  if (skills.length === 0) return '';
  const parts = skills.map((s) => `<skill_content name="${escapeAttr(s.name)}" title="${escapeAttr(s.title)}">\n${s.body}\n</skill_content>`);
  return `<active_skills>\n${parts.join('\n')}\n</active_skills>`;
}

/** Slab [2]: the whitelist as tool schemas, in the order given (the registry's, by name). */
export function capabilitySchemas(capabilities: readonly CapabilityInfo[]): ToolSchema[] {
  return capabilities.map((c) => ({
    name: c.name,
    description: `${c.title}. ${c.description.trim()}${effectNote(c)}`,
    input_schema: toolInputSchema(c.inputSchema),
  }));
}

function effectNote(c: CapabilityInfo): string {
  if (c.kind === 'read') return ' (Reads only.)';
  return ' (Changes data.)';
}

/** A JSON Schema ready for a tool listing: `$schema` dropped, keys sorted. */
export function toolInputSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema;
  const canonical = sortKeys(rest) as Record<string, unknown>;
  return canonical.type === 'object' ? canonical : { type: 'object', properties: {} };
}

/** Names the engine's own verbs carry in tool listings (letters, digits, `_` only). */
export const CONTROL_TOOL_NAMES = {
  propose: 'propose_capability',
  ask: 'ask_user',
  standing: 'hand_off_standing_request',
} as const;

/** The engine's own verbs as tools: always the same bytes. */
export const CONTROL_TOOLS: readonly ToolSchema[] = [
  {
    name: CONTROL_TOOL_NAMES.propose,
    description:
      'Propose one capability with its arguments for the user to accept or dismiss (the propose intent). Use it for anything the user did not ask for by name when alignment is strict, or when several capabilities could fit. The result is the capability\'s result once accepted, or a note that it was dismissed.',
    input_schema: sortKeys({
      type: 'object',
      properties: {
        capability: { type: 'string', description: 'The capability (tool) name.' },
        arguments: { type: 'object', description: 'Arguments for it, matching its input schema.' },
        reason: { type: 'string', description: 'One sentence, in the user\'s terms, on why.' },
      },
      required: ['capability', 'arguments'],
    }) as Record<string, unknown>,
  },
  {
    name: CONTROL_TOOL_NAMES.ask,
    description:
      'Ask the user one clarifying question with two to four quick answers. The turn waits; the result is the user\'s answer. At most once per request.',
    input_schema: sortKeys({
      type: 'object',
      properties: {
        question: { type: 'string' },
        options: {
          type: 'array',
          items: { type: 'object', properties: { label: { type: 'string' }, value: { type: 'string' } }, required: ['label', 'value'] },
        },
      },
      required: ['question', 'options'],
    }) as Record<string, unknown>,
  },
  {
    name: CONTROL_TOOL_NAMES.standing,
    description:
      'Hand a standing request (watch, track, notify me when, every week, keep an eye on, over time) to the host application, which runs trackers. Then confirm to the user in one sentence.',
    input_schema: sortKeys({
      type: 'object',
      properties: {
        request: { type: 'string', description: 'What to keep doing, in the user\'s words.' },
        cadence: { type: 'string', description: 'How often, if the user said (e.g. "every week").' },
      },
      required: ['request'],
    }) as Record<string, unknown>,
  },
];

export interface TurnContextInput {
  suggestions: readonly Suggestion[];
  corpus: readonly CorpusPassage[];
  violations: readonly ViolationNote[];
  route: Route;
  /** Titles by capability name, to show suggestions in the user's terms. */
  titles?: ReadonlyMap<string, string>;
}

/**
 * Slabs [5] and [7] plus this turn's notes, as one text placed before the
 * user's message [8]. Uncached: it may change every turn.
 */
export function turnContextSlab({ suggestions, corpus, violations, route, titles }: TurnContextInput): string {
  const parts: string[] = [];
  if (suggestions.length) {
    const lines = suggestions.map((s) => {
      const title = titles?.get(s.capability);
      const args = s.prefill && Object.keys(s.prefill).length ? ` ${canonicalJson(s.prefill)}` : '';
      return `- ${s.hint} → ${s.capability}${title ? ` (${title})` : ''}${args}`;
    });
    parts.push(`<suggested_next_verbs>\n${lines.join('\n')}\n</suggested_next_verbs>`);
  }
  if (corpus.length) {
    const passages = corpus.map((p) => {
      const attrs = `${p.id ? ` id="${escapeAttr(p.id)}"` : ''}${p.title ? ` title="${escapeAttr(p.title)}"` : ''}`;
      return `<passage${attrs}>\n${p.text}\n</passage>`;
    });
    parts.push(`<retrieved_corpus>\n${passages.join('\n')}\n</retrieved_corpus>`);
  }
  if (violations.length) parts.push(`<quality_violations>\n${violations.map(violationLine).join('\n')}\n</quality_violations>`);
  const cues = route.cues.length ? ` cues="${escapeAttr(route.cues.join(', '))}"` : '';
  const cadence = route.cadence ? ` cadence="${escapeAttr(route.cadence)}"` : '';
  parts.push(`<intent_router route="${route.kind}"${cadence}${cues}/>`);
  return parts.join('\n');
}

/** One violation as a line the model (and a reader of the prompt) understands. */
export function violationLine(v: ViolationNote): string {
  return `<quality_violation capability="${escapeAttr(v.title)}" postcondition="${escapeAttr(v.postcondition)}" expected="${escapeAttr(v.expected)}" actual="${escapeAttr(v.actual)}">${v.message}</quality_violation>`;
}

// (canonicalJson and sortKeys live in ../canonicalJson: the slash offers use them without the slabs.)
export { canonicalJson, sortKeys } from '../canonicalJson';

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
