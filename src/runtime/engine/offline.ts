import { isQuestion, pendingProposal } from './alignment';
import { abilitiesReply, acknowledge, answerReply, resultReply, suggestionsSentence, summaryReply, unknownReply } from './replies';
import { ROUTE_OPTIONS, ROUTE_QUESTION, routeIntent } from '../prompt/router';
import { readMessage } from './understand';
import { CONTROL, type DriverChunk, type ModelMessage, type ModelRequest } from '../model';

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
  const reading = readMessage(text, { capabilities, suggestions, pending: pendingProposal(request.messages) });
  switch (reading.kind) {
    case 'abilities':
      yield* say(abilitiesReply(capabilities));
      return;
    case 'greeting':
      yield* say(`Hello! ${suggestionsSentence(suggestions) || 'Ask “what can you do?” to see what I can run.'}`);
      return;
    case 'thanks':
      yield* say(`You're welcome.${suggestions.length ? ` ${suggestionsSentence(suggestions)}` : ''}`);
      return;
    case 'decline':
      yield* say(`Okay, I won't run anything.${suggestions.length ? ` ${suggestionsSentence(suggestions)}` : ''}`);
      return;
    case 'undo':
      yield* say(unknownReply(suggestions, "I can't undo a run from here."));
      return;
    case 'summary':
      yield* say(summaryReply(request.messages.slice(0, -1)));
      return;
    case 'unknown':
      yield* say(unknownReply(suggestions));
      return;
    case 'run': {
      const { capability, args, why } = reading;
      const runs = why === 'named' || why === 'accepted' || why === 'question' || (why === 'clear' && request.alignment === 'loose');
      if (runs) {
        yield { type: 'invoke', capability: capability.name, args };
        return;
      }
      const others = reading.others.map((c) => c.title);
      const reason =
        why === 'clear' || others.length === 0
          ? `${capability.title} matches what you asked for.`
          : `${capability.title} fits best; ${others.join(' or ')} could also fit.`;
      yield { type: 'propose', capability: capability.name, args, reason };
      return;
    }
    default:
      return reading satisfies never;
  }
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
      yield* oneShot(text, request, say);
    }
    return;
  }
  const read = request.capabilities.find((c) => c.name === message.capability)?.kind === 'read';
  yield* say(read && isQuestion(text) ? answerReply(message) : resultReply(message));
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
