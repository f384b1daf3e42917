import type { Suggestion } from './anticipation';
import { findNamedCapability, isClearMatch, readArguments, scoreCapabilities } from './engine/match';
import { ROUTE_OPTIONS, ROUTE_QUESTION, routeIntent } from './engine/router';
import { resultText } from './envelope';
import { CONTROL, DECLINED_META, type DriverChunk, type ModelDriver, type ModelMessage, type ModelRequest, type ViolationNote } from './model';
import type { CapabilityInfo } from './registry';

export interface OfflineDriverOptions {
  /** Pause between streamed words, so streaming is visible in a demo. @default 12 */
  delayMs?: number;
}

type ToolMessage = Extract<ModelMessage, { role: 'tool' }>;

/**
 * A deterministic model that needs no key. It follows the intent router
 * (standing requests go to the host, ambiguous ones get one question), runs
 * a capability the user names, and for one the user only describes it uses
 * titles, descriptions and the current suggestions: a single clear match is
 * run under `loose` alignment and proposed under `strict`. It reports results
 * in plain words and first acknowledges checks that failed since last turn.
 * @example
 * const driver = createOfflineDriver({ delayMs: 0 });
 */
export function createOfflineDriver({ delayMs = 12 }: OfflineDriverOptions = {}): ModelDriver {
  return {
    info: { id: 'offline', label: 'Offline model' },
    async *respond(request: ModelRequest): AsyncIterable<DriverChunk> {
      const last = request.messages[request.messages.length - 1];
      if (!last) return;
      const say = (text: string) => words(text, delayMs, request.signal);
      if (last.role === 'tool') {
        yield* afterTool(last, request, say);
        return;
      }
      if (last.role !== 'user') return;
      yield* respondToUser(last.text, request, say);
    },
  };
}

async function* respondToUser(
  text: string,
  request: ModelRequest,
  say: (text: string) => AsyncIterable<DriverChunk>,
): AsyncIterable<DriverChunk> {
  const route = request.route ?? routeIntent(text);
  const ack = acknowledge(request.violations ?? []);
  if (ack) yield* say(ack);
  if (route.kind === 'standing') {
    yield { type: 'standing', text, ...(route.cadence ? { cadence: route.cadence } : {}) };
    return;
  }
  if (route.kind === 'ambiguous' && !request.asked) {
    yield { type: 'ask', question: ROUTE_QUESTION, options: ROUTE_OPTIONS, purpose: 'route' };
    return;
  }
  yield* oneShot(text, request, say);
}

async function* oneShot(
  text: string,
  request: ModelRequest,
  say: (text: string) => AsyncIterable<DriverChunk>,
): AsyncIterable<DriverChunk> {
  const { capabilities } = request;
  const suggestions = request.suggestions ?? [];
  const named = findNamedCapability(text, capabilities);
  if (named) {
    yield { type: 'invoke', capability: named.capability.name, args: readArguments(text, named.capability, named.end) };
    return;
  }
  const scored = scoreCapabilities(text, capabilities, suggestions);
  const best = scored[0];
  if (!best) {
    yield* say(describeAbilities(capabilities, suggestions));
    return;
  }
  const args = { ...(best.suggestion?.prefill ?? {}), ...readArguments(text, best.capability) };
  if (isClearMatch(scored) && request.alignment === 'loose') {
    yield { type: 'invoke', capability: best.capability.name, args };
    return;
  }
  const others = scored.slice(1, 3).map((s) => s.capability.title);
  const reason = isClearMatch(scored)
    ? `${best.capability.title} matches what you asked for.`
    : `${best.capability.title} fits best; ${others.join(' or ')} could also fit.`;
  yield { type: 'propose', capability: best.capability.name, args, reason };
}

/** What to do once a tool call came back: report a result, act on an answer, confirm a hand-off. */
async function* afterTool(
  message: ToolMessage,
  request: ModelRequest,
  say: (text: string) => AsyncIterable<DriverChunk>,
): AsyncIterable<DriverChunk> {
  if (message.capability === CONTROL.standing) {
    yield* say(`I have handed this to the workspace to keep watching${cadenceOf(message.args)}; it will follow up there.`);
    return;
  }
  if (message.capability === CONTROL.ask) {
    // The answer to the router's question: the engine passes the route it chose.
    const original = [...request.messages].reverse().find((m) => m.role === 'user');
    const text = original?.role === 'user' ? original.text : '';
    if (request.route?.kind === 'standing') {
      yield { type: 'standing', text, ...(request.route.cadence ? { cadence: request.route.cadence } : {}) };
    } else {
      yield* oneShot(text, request, say);
    }
    return;
  }
  yield* say(describeResult(message));
}

function cadenceOf(args: unknown): string {
  const cadence = args && typeof args === 'object' ? (args as { cadence?: unknown }).cadence : undefined;
  return typeof cadence === 'string' && cadence ? ` (${cadence})` : '';
}

function describeResult(message: ToolMessage): string {
  const text = resultText(message.result).trim();
  const declined = message.result._meta?.[DECLINED_META];
  if (declined === 'denied' || declined === 'dismissed') return `Understood: I did not run ${message.title}.`;
  let reply: string;
  if (message.result.isError) reply = `I couldn't finish ${message.title}. ${text}`;
  else reply = text ? `${message.title} is done. ${text}` : `${message.title} is done.`;
  const failed = message.violations ?? [];
  if (failed.length) reply += ` But ${failed.length === 1 ? 'a check' : `${failed.length} checks`} did not hold: ${failed.map(violationWords).join(' ')}`;
  return reply;
}

/** The acknowledgement of checks that failed since the last turn, or ''. */
export function acknowledge(violations: readonly ViolationNote[]): string {
  if (violations.length === 0) return '';
  const lines = violations.map((v) => `${v.title}: ${violationWords(v)}`);
  return `Before we go on: the last run finished but ${violations.length === 1 ? 'a check' : 'some checks'} did not hold. ${lines.join(' ')} I can run it again with corrected arguments if you like.`;
}

function violationWords(v: ViolationNote): string {
  const message = v.message.trim().replace(/\.?$/, '.');
  return `${message} (expected ${v.expected}, got ${v.actual}.)`;
}

function describeAbilities(capabilities: readonly CapabilityInfo[], suggestions: readonly Suggestion[]): string {
  if (capabilities.length === 0) return 'I am the offline model, and this workspace has no capabilities yet.';
  const list = capabilities.map((c) => `${c.title} (${c.description.replace(/\.$/, '')})`).join('; ');
  const next = suggestions.length ? ` Next, you could: ${suggestions.map((s) => s.hint).join('; ')}.` : '';
  return `I am the offline model: name what you want run and I will run it. I can do: ${list}.${next}`;
}

async function* words(text: string, delayMs: number, signal: AbortSignal): AsyncIterable<DriverChunk> {
  const parts = text.match(/\S+\s*/g) ?? [];
  for (const part of parts) {
    if (signal.aborted) return;
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    yield { type: 'text', text: part };
  }
}
