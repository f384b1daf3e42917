import { isQuestion, pendingProposal } from './alignment';
import { abilitiesReply, acknowledge, answerReply, resultReply, smallTalkReply, suggestionsSentence, summaryReply, unknownReply, UNPLACED, unplacedReply } from './replies';
import { sayBackReply } from './sayBack';
import { ROUTE_OPTIONS, ROUTE_QUESTION, routeIntent } from '../prompt/router';
import { readMessage, type Step } from './understand';
import { acknowledgeFiles, importAttachment } from './offlineAttachments';
import { CONTROL, DECLINED_META, type DriverChunk, type ModelMessage, type ModelRequest } from '../model';

// The offline model's engine: understanding a request through the capability index (MiniSearch),
// filling arguments from words, and the replies. `createOfflineDriver` (../offlineDriver.ts) loads
// this module the first time the offline model answers, so a page that never sends ships none of it.

type ToolMessage = Extract<ModelMessage, { role: 'tool' }>;

/** One offline reply to the request's last message (see `createOfflineDriver`). */
export async function* respondOffline(request: ModelRequest, delayMs: number): AsyncIterable<DriverChunk> {
  const last = request.messages[request.messages.length - 1];
  if (!last) return;
  const say = (text: string) => words(text, delayMs, request.signal);
  if (last.role === 'tool') {
    yield* afterTool(last, request, say);
    return;
  }
  if (last.role !== 'user') return;
  if (last.attachments?.length) {
    // "import this" with a CSV attached: the import, proposed on that file; other files are acknowledged by name.
    const proposal = importAttachment(last.text, last.attachments, request, contextOf(request));
    if (proposal) {
      yield proposal;
      return;
    }
    yield* say(acknowledgeFiles(last.attachments));
    yield { type: 'text', text: '\n\n' };
  }
  yield* respondToUser(last.text, request, say);
}

type Say = (text: string) => AsyncIterable<DriverChunk>;

async function* respondToUser(text: string, request: ModelRequest, sayPlain: Say): AsyncIterable<DriverChunk> {
  let say = sayPlain;
  const route = request.route ?? routeIntent(text);
  const ack = acknowledge(request.violations ?? []);
  if (ack) {
    yield* say(ack);
    // What follows in the same reply starts a new paragraph.
    const plain = say;
    let first = true;
    say = async function* (text: string) {
      if (first) {
        first = false;
        yield { type: 'text', text: '\n\n' };
      }
      yield* plain(text);
    };
  }
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

async function* oneShot(text: string, request: ModelRequest, say: Say): AsyncIterable<DriverChunk> {
  const { capabilities } = request;
  // "/summarize …": the skill asks for a summary; offline, it comes from the thread's structured results.
  if (request.loadedSkill && /summar/i.test(request.loadedSkill)) {
    yield* say(summaryReply(request.messages.slice(0, -1), text));
    return;
  }
  const suggestions = request.suggestions ?? [];
  const reading = readMessage(text, contextOf(request));
  const thenSuggest = suggestions.length ? ` ${suggestionsSentence(suggestions)}` : '';
  switch (reading.kind) {
    case 'abilities':
      yield* say(abilitiesReply(capabilities));
      return;
    case 'greeting':
      yield* say(`Hello! ${suggestionsSentence(suggestions) || 'Ask “what can you do?” to see what I can run.'}`);
      return;
    case 'thanks':
      yield* say(`You're welcome.${thenSuggest}`);
      return;
    case 'smalltalk':
      yield* say(smallTalkReply(reading.about));
      return;
    case 'decline':
      yield* say(`Okay, I won't run anything.${thenSuggest}`);
      return;
    case 'undo':
      yield* say(unknownReply(suggestions, "I can't undo a run from here."));
      return;
    case 'summary':
      yield* say(summaryReply(request.messages.slice(0, -1)));
      return;
    case 'say':
      yield* say(sayBackReply(reading.clause, suggestions, capabilities));
      return;
    case 'unknown':
      yield* say(unplacedReply(unplacedBefore(request.messages), reading.closest, suggestions, capabilities));
      return;
    case 'plan':
      yield stepIntent(reading.steps[0]!, request);
      return;
    default:
      return reading satisfies never;
  }
}

/** What the reader needs from the request: the capabilities, suggestions, the undecided proposal and the message before. */
function contextOf(request: ModelRequest, upTo = request.messages.length) {
  const messages = request.messages.slice(0, upTo);
  const users = messages.filter((m): m is Extract<ModelMessage, { role: 'user' }> => m.role === 'user');
  const previous = users.length >= 2 ? users[users.length - 2]!.text : undefined;
  return { capabilities: request.capabilities, suggestions: request.suggestions ?? [], pending: pendingProposal(request.messages), ...(previous ? { previous } : {}) };
}

/** A step as the driver's intent: run what was named, accepted or asked as a question (or clear, under loose alignment); else propose. */
function stepIntent(step: Step, request: ModelRequest): DriverChunk {
  const { capability, args, why } = step;
  const runs = why === 'named' || why === 'accepted' || why === 'question' || (why === 'clear' && request.alignment === 'loose');
  if (runs) return { type: 'invoke', capability: capability.name, args };
  const others = step.others.map((c) => c.title);
  const reason = why === 'clear' || others.length === 0 ? `${capability.title} matches what you asked for.` : `${capability.title} fits best; ${others.join(' or ')} could also fit.`;
  return { type: 'propose', capability: capability.name, args, reason };
}

/** How many of the model's replies so far could not place a message (so the next one words it differently). */
function unplacedBefore(messages: readonly ModelMessage[]): number {
  return messages.filter((m) => m.role === 'assistant' && UNPLACED.some((lead) => m.text.startsWith(lead))).length;
}

/**
 * The steps of the user's message still to run after a tool result: the
 * message is read again, and the runs since it count off its steps in
 * order. None when a step failed or was turned down.
 */
function remainingSteps(request: ModelRequest): Step[] {
  const at = request.messages.map((m) => m.role).lastIndexOf('user');
  if (at === -1) return [];
  const user = request.messages[at]!;
  if (user.role !== 'user') return [];
  const runs = request.messages.slice(at + 1).filter((m): m is ToolMessage => m.role === 'tool' && !m.capability.startsWith('@'));
  if (runs.some((m) => m.result.isError || m.result._meta?.[DECLINED_META])) return [];
  const reading = readMessage(user.text, contextOf(request, at + 1));
  if (reading.kind !== 'plan' || reading.steps.length <= runs.length) return [];
  return reading.steps.slice(runs.length);
}

/** What to do once a tool call came back: report a result, act on an answer, confirm a hand-off. */
async function* afterTool(message: ToolMessage, request: ModelRequest, say: Say): AsyncIterable<DriverChunk> {
  if (message.capability === CONTROL.standing) {
    yield* say(`I have handed this to the workspace to keep watching${cadenceOf(message.args)}; it will follow up there.`);
    return;
  }
  const original = [...request.messages].reverse().find((m) => m.role === 'user');
  const text = original?.role === 'user' ? original.text : '';
  if (message.capability === CONTROL.ask) {
    // The answer to the router's question: the engine passes the route it chose.
    if (request.route?.kind === 'standing') {
      yield { type: 'standing', text, ...(request.route.cadence ? { cadence: request.route.cadence } : {}) };
    } else {
      // "Once": the words that asked to keep watching ("and track them") are no part of the request now.
      const cues = routeIntent(text).cues;
      const now = cues.reduce((t, cue) => t.replace(new RegExp(String.raw`\s*(?:,?\s*and\s+)?\b${cue.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\b(?:\s+(?:it|them|that|this))?`, 'i'), ''), text);
      yield* oneShot(now.trim() || text, request, say);
    }
    return;
  }
  const read = request.capabilities.find((c) => c.name === message.capability)?.kind === 'read';
  // A read that counts (a total) is answered in one sentence; other results are reported.
  const counted = typeof message.result.structuredContent?.total === 'number' || typeof message.result.structuredContent?.count === 'number';
  const report = read && !message.result._meta?.[DECLINED_META] && (counted || isQuestion(text)) ? answerReply(message) : resultReply(message);
  const next = remainingSteps(request)[0];
  if (next) {
    // One step done, the next of the same message follows: its report, then the call.
    yield* say(report);
    yield stepIntent(next, request);
    return;
  }
  yield* say(report);
}

function cadenceOf(args: unknown): string {
  const cadence = args && typeof args === 'object' ? (args as { cadence?: unknown }).cadence : undefined;
  return typeof cadence === 'string' && cadence ? ` (${cadence})` : '';
}

async function* words(text: string, delayMs: number, signal: AbortSignal): AsyncIterable<DriverChunk> {
  const parts = text.match(/\S+\s*/g) ?? [];
  for (const part of parts) {
    if (signal.aborted) return;
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    yield { type: 'text', text: part };
  }
}
