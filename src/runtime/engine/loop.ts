import { type CapabilityResult } from '../envelope';
import { errorResult, textResult } from '../results';
import type { Citation, Emit, Usage } from '../events';
import { createId } from '../ids';
import {
  CONTROL,
  ModelError,
  type ActiveSkill,
  type DriverChunk,
  type ModelDriver,
  type ModelMessage,
  type PromptContext,
  type ThinkingBlock,
  type ToolCall,
  type ViolationNote,
} from '../model';
import type { CapabilityInfo } from '../registry';
import { recordMessage } from '../history';
import { decideCall, isQuestion, pendingProposal, readAcceptance } from './alignment';
import { createArgsWriter, type ArgsWriter } from './argsWriter';
import { createDeltaCoalescer, type DeltaCoalescer } from './deltaCoalescer';
import { resourceSources } from './resourceSources';

/** How a turn ended: its one intent, or why it has none. */
export type TurnOutcome = 'answered' | 'proposed' | 'invoked' | 'waiting' | 'cancelled' | 'failed';

/** What a capability run gives back to the engine. */
export interface InvokeOutcome {
  result: CapabilityResult;
  /** Postconditions that failed after it ran; the model is told. */
  violations?: readonly ViolationNote[];
}

/**
 * Runs a capability the model asked for (the workspace wires cancellation, jobs and checks);
 * `invocationId`: the id its card already has, when its arguments streamed into one (run it as that).
 */
export type TurnInvoke = (capability: string, args: unknown, turnId: string, callId?: string, invocationId?: string) => Promise<CapabilityResult | InvokeOutcome>;

interface WaitingBase {
  /** The proposal, approval or question id the user answers. */
  id: string;
  /** The model's tool call it answers; absent for a chip that waits for approval (no model turn). */
  call_id?: string;
  turn_id: string;
  /** What the user wrote for this request: names in it count as named under strict alignment. */
  userText: string;
  route: PromptContext['route'];
}

/** A row the turn stopped on; the user's decision resumes it (`resumeTurn`). */
export type Waiting =
  | (WaitingBase & { kind: 'proposal'; capability: string; title: string; args: unknown })
  | (WaitingBase & { kind: 'approval'; capability: string; title: string; args: unknown })
  | (WaitingBase & { kind: 'question'; question: string; purpose?: 'route' });

export interface LoopInput {
  driver: ModelDriver;
  capabilities: readonly CapabilityInfo[];
  emit: Emit;
  invoke: TurnInvoke;
  signal: AbortSignal;
  turnId: string;
  maxSteps: number;
  prompt: PromptContext;
  userText: string;
  /** The conversation; the loop appends to it. */
  messages: ModelMessage[];
  /** True when a capability already ran in this turn (an accepted proposal). */
  ran: boolean;
  /** Slab [3] as it is now: a skill consulted in this turn shapes its next step. @default the prompt's skills */
  skillsNow?: () => readonly ActiveSkill[];
}

export interface LoopResult {
  outcome: TurnOutcome;
  waiting: Waiting | null;
}

type Intent = Exclude<DriverChunk, { type: 'text' | 'usage' | 'reasoning' | 'reasoning_end' | 'thinking' | 'citation' | 'call_args' }>;

/** One turn of the loop as its steps share it. */
interface LoopTurn {
  input: LoopInput;
  /** Adds a message to the conversation and emits its row. */
  record: (message: ModelMessage) => void;
  /** Streamed text goes out a frame at a time when it comes faster (see createDeltaCoalescer). */
  deltas: DeltaCoalescer;
  /** The same for the model's streamed reasoning (`reasoning.delta`). */
  reasoning: DeltaCoalescer;
  /** The calls' arguments as the model writes them, into the cards of the invocations they become. */
  args: ArgsWriter;
  /** Words that accept the pending proposal or a current suggestion count as naming it (strict alignment). */
  acceptance: ReturnType<typeof readAcceptance>;
  /** The user's text is a question (answering it may run a read). */
  question: boolean;
  /** The model has asked its one question for this request. */
  asked: boolean;
  /** A capability ran in this turn. */
  ran: boolean;
  /** Usage of steps without text, carried to the next assistant row. */
  usage: Usage | undefined;
}

/** What one model step said: its text, the intents (calls) it streamed and its reasoning blocks. */
interface StepReply {
  reply: string;
  intents: Intent[];
  thinking: readonly ThinkingBlock[];
}

/** The step ended because the signal aborted (the user stopped the turn) while a capability ran. */
const CANCELLED = 'cancelled';

/**
 * Model steps until the model answers, or the turn stops on a proposal, an
 * approval or a question. Reads sync-continue; a driver error becomes a
 * `turn.error` row and the conversation so far is kept.
 */
export async function runModelLoop(input: LoopInput): Promise<LoopResult> {
  const { emit, signal, turnId, prompt, messages } = input;
  const turn: LoopTurn = {
    input,
    record: (message) => recordMessage(messages, emit, turnId, message),
    deltas: createDeltaCoalescer(emit),
    reasoning: createDeltaCoalescer(emit, undefined, 'reasoning.delta'),
    args: createArgsWriter(emit, turnId, (name) => runsAtOnce(turn, name)),
    acceptance: readAcceptance(input.userText, { suggestions: prompt.suggestions, pending: pendingProposal(messages) }),
    question: isQuestion(input.userText),
    asked: prompt.asked,
    ran: input.ran,
    usage: undefined,
  };
  try {
    for (let step = 0; step < input.maxSteps; step++) {
      const { reply, intents, thinking } = await streamStep(turn, step);
      const calls = intents.map(toCall);
      if (reply || calls.length) turn.record({ role: 'assistant', text: reply, ...(calls.length ? { calls } : {}), ...(thinking.length ? { thinking } : {}) });
      if (signal.aborted) return cancelled(input);
      if (calls.length === 0) return { outcome: turn.ran ? 'invoked' : 'answered', waiting: null };
      const waiting = await actOnIntents(turn, intents, calls);
      turn.args.dropRest(waiting ? NOT_RUN.waiting : NOT_RUN.cut);
      if (waiting === CANCELLED) return cancelled(input);
      if (waiting) return { outcome: waiting.kind === 'proposal' ? 'proposed' : 'waiting', waiting };
    }
    emit({
      type: 'turn.error',
      turn_id: turnId,
      code: 'too_many_steps',
      message: `The model asked for more than ${input.maxSteps} steps in one turn, so the turn was ended.`,
      recoverable: true,
    });
    return { outcome: 'failed', waiting: null };
  } catch (error) {
    // The text that came before the failure or the stop is kept.
    turn.reasoning.flush();
    turn.deltas.flush();
    return failed(input, error);
  } finally {
    // A step stopped or failed while the model wrote a call: its card ends, saying so.
    turn.args.dropRest(NOT_RUN.cut);
  }
}

/**
 * One model step: streams the reply's text out as it comes (a row opened on
 * the first text, closed with the usage so far) and gathers its intents.
 */
async function streamStep(turn: LoopTurn, step: number): Promise<StepReply> {
  const { driver, capabilities, emit, signal, turnId, prompt, messages } = turn.input;
  let messageId: string | null = null;
  let reply = '';
  const intents: Intent[] = [];
  let thinking: readonly ThinkingBlock[] = [];
  /** Reasoning shown and not yet closed by a `reasoning.done`. */
  let reasoningOpen = false;
  const open = (): string => {
    if (messageId === null) {
      messageId = createId('msg');
      emit({ type: 'message.created', message_id: messageId, role: 'assistant', text: '', turn_id: turnId, driver: driver.info });
    }
    return messageId;
  };
  const closeReasoning = (redacted?: boolean) => {
    turn.reasoning.flush();
    if (reasoningOpen || redacted) emit({ type: 'reasoning.done', message_id: open(), ...(redacted ? { redacted: true } : {}) });
    reasoningOpen = false;
  };
  const skills = step > 0 && turn.input.skillsNow ? turn.input.skillsNow() : prompt.skills;
  for await (const chunk of driver.respond({ ...prompt, skills, asked: turn.asked, messages: [...messages], capabilities, signal })) {
    if (signal.aborted) break;
    if (chunk.type === 'text') {
      if (reasoningOpen) closeReasoning();
      reply += chunk.text;
      turn.deltas.push(open(), chunk.text);
    } else if (chunk.type === 'reasoning') {
      if (!chunk.text) continue;
      reasoningOpen = true;
      turn.reasoning.push(open(), chunk.text);
    } else if (chunk.type === 'reasoning_end') {
      closeReasoning(chunk.redacted);
    } else if (chunk.type === 'citation') {
      // After the text it cites (flushed first), its span held within the reply's text.
      turn.deltas.flush();
      emit({ type: 'message.cited', message_id: open(), citation: citedWithin(chunk.citation, reply.length) });
    } else if (chunk.type === 'thinking') {
      thinking = chunk.blocks;
    } else if (chunk.type === 'usage') {
      turn.usage = addUsage(turn.usage, chunk.usage);
    } else if (chunk.type === 'call_args') {
      turn.args.push(chunk.call_id, chunk.capability, chunk.delta);
    } else {
      intents.push(chunk);
    }
  }
  if (reasoningOpen) closeReasoning();
  turn.deltas.flush();
  turn.args.flush();
  if (messageId !== null) {
    // What the results it answers from pointed to (MCP resource links): sources after those it cited.
    for (const citation of resourceSources(messages)) emit({ type: 'message.cited', message_id: messageId, citation });
    emit({ type: 'message.done', message_id: messageId, ...(turn.usage ? { usage: turn.usage } : {}) });
    turn.usage = undefined;
  }
  return { reply, intents, thinking };
}

/**
 * Acts on a step's intents in order: a standing request is handed off, a
 * question or a proposal or approval makes the turn wait (the intents after
 * it are answered "not run"), a call alignment allows runs.
 */
async function actOnIntents(turn: LoopTurn, intents: readonly Intent[], calls: readonly ToolCall[]): Promise<Waiting | null | typeof CANCELLED> {
  const { capabilities } = turn.input;
  let waiting: Waiting | null = null;
  for (const [i, intent] of intents.entries()) {
    const call = calls[i]!;
    const info = 'capability' in intent ? capabilities.find((c) => c.name === intent.capability) : undefined;
    if (waiting) {
      const title = waiting.kind === 'question' ? 'the question' : waiting.title;
      pushTool(turn, call, info?.title, errorResult(`Not run: the turn is waiting for the user's decision on ${title}.`));
    } else if (intent.type === 'standing') {
      handOffStanding(turn, intent, call);
    } else if (intent.type === 'ask') {
      waiting = askQuestion(turn, intent, call);
    } else if (!info) {
      const names = capabilities.map((c) => c.name).join(', ') || 'none';
      pushTool(turn, call, intent.capability, errorResult(`No capability named "${intent.capability}" is available here. Available: ${names}.`));
    } else {
      const next = await callCapability(turn, intent, call, info);
      if (next === CANCELLED) return CANCELLED;
      waiting = next;
    }
  }
  return waiting;
}

function handOffStanding(turn: LoopTurn, intent: Extract<Intent, { type: 'standing' }>, call: ToolCall): void {
  turn.input.emit({ type: 'standing.requested', request_id: createId('standing'), turn_id: turn.input.turnId, text: intent.text, ...(intent.cadence ? { cadence: intent.cadence } : {}) });
  pushTool(turn, call, 'Standing request', textResult('Handed to the workspace, which keeps watching and follows up.', { handed_off: true }));
}

/** The model's one question for this request: the turn waits for the answer (a second one is refused). */
function askQuestion(turn: LoopTurn, intent: Extract<Intent, { type: 'ask' }>, call: ToolCall): Waiting | null {
  const { emit, turnId, userText, prompt } = turn.input;
  if (turn.asked || !intent.question.trim()) {
    const why = turn.asked ? 'You already asked your one question for this request: go on with what you know.' : 'A question needs text.';
    pushTool(turn, call, 'Question', errorResult(why));
    return null;
  }
  turn.asked = true;
  const id = createId('question');
  emit({
    type: 'clarify.requested',
    question_id: id,
    turn_id: turnId,
    question: intent.question,
    options: [...intent.options],
    call_id: call.id,
    user_text: userText,
    route: routeOf(prompt.route),
    ...(intent.purpose ? { purpose: intent.purpose } : {}),
  });
  return { kind: 'question', id, call_id: call.id, turn_id: turnId, question: intent.question, userText, route: prompt.route, ...(intent.purpose ? { purpose: intent.purpose } : {}) };
}

/** Why a call the model wrote into a card did not run (its card ends with it). */
const NOT_RUN = {
  waiting: "Not run: the turn is waiting for the user's decision on an earlier step.",
  cut: 'Not run: the reply stopped before this call was complete.',
};

/** The title of a capability the turn would run at once if the model called it now (a card as its arguments stream), else undefined. */
function runsAtOnce(turn: LoopTurn, name: string): string | undefined {
  const info = turn.input.capabilities.find((c) => c.name === name);
  if (!info) return undefined;
  const { prompt, userText } = turn.input;
  const decision = decideCall({ capability: info, alignment: prompt.alignment, userText, accepted: turn.acceptance?.capability === info.name, answersQuestion: turn.question });
  return decision.action === 'run' ? info.title : undefined;
}

/** A call of a known capability: run now, or a proposal or approval the turn waits on, as alignment decides. */
async function callCapability(
  turn: LoopTurn,
  intent: Extract<Intent, { type: 'invoke' | 'propose' }>,
  call: ToolCall,
  info: CapabilityInfo,
): Promise<Waiting | null | typeof CANCELLED> {
  const { emit, turnId, userText, prompt, signal } = turn.input;
  const decision =
    intent.type === 'propose'
      ? ({ action: 'propose', reason: intent.reason?.trim() || `${info.title} may help with this.` } as const)
      : decideCall({
          capability: info,
          alignment: prompt.alignment,
          userText,
          accepted: turn.acceptance?.capability === info.name,
          answersQuestion: turn.question,
        });
  if (decision.action === 'run') {
    await runCall(turn, call, info, intent.args);
    turn.ran = true;
    return signal.aborted ? CANCELLED : null;
  }
  const base = { call_id: call.id, turn_id: turnId, capability: info.name, title: info.title, args: intent.args, userText, route: prompt.route };
  if (decision.action === 'propose') {
    const id = createId('proposal');
    emit({ type: 'proposal.created', proposal_id: id, turn_id: turnId, capability: info.name, title: info.title, args: intent.args, reason: decision.reason, ...requestOf(base) });
    return { kind: 'proposal', id, ...base };
  }
  const id = createId('approval');
  emit({ type: 'approval.requested', approval_id: id, turn_id: turnId, capability: info.name, title: info.title, args: intent.args, reason: decision.reason, ...requestOf(base) });
  return { kind: 'approval', id, ...base };
}

async function runCall(turn: LoopTurn, call: ToolCall, info: CapabilityInfo, args: unknown): Promise<void> {
  const { invoke, turnId } = turn.input;
  const streamed = turn.args.take(call.id);
  const outcome = toOutcome(await (streamed ? invoke(info.name, args, turnId, call.id, streamed) : invoke(info.name, args, turnId, call.id)));
  turn.record({
    role: 'tool',
    call_id: call.id,
    capability: info.name,
    title: info.title,
    args,
    result: outcome.result,
    ...(outcome.violations?.length ? { violations: outcome.violations } : {}),
  });
}

function pushTool(turn: LoopTurn, call: ToolCall, title: string | undefined, result: CapabilityResult): void {
  turn.record({ role: 'tool', call_id: call.id, capability: call.capability, title: title ?? call.capability, args: call.args, result });
}

function cancelled({ emit, turnId }: LoopInput): LoopResult {
  emit({ type: 'turn.error', turn_id: turnId, code: 'cancelled', message: 'Stopped before the reply finished.', recoverable: true });
  return { outcome: 'cancelled', waiting: null };
}

/** A failed step: a stop when the signal aborted (drivers honour it by rejecting), else the model's error. */
function failed(input: LoopInput, error: unknown): LoopResult {
  const { emit, turnId, signal, driver } = input;
  // Drivers honour the signal by rejecting (fetch, SDK streams): that is a stop, not a model failure.
  if (signal.aborted) return cancelled(input);
  if (isModelError(error)) {
    emit({ type: 'turn.error', turn_id: turnId, code: error.code, message: error.message, recoverable: error.recoverable });
  } else {
    const message = error instanceof Error ? error.message : String(error);
    emit({ type: 'turn.error', turn_id: turnId, code: 'model_error', message: `${driver.info.label} failed: ${message}`, recoverable: true });
  }
  return { outcome: 'failed', waiting: null };
}

/** The route as events carry it (plain arrays). */
export function routeOf(route: PromptContext['route']): { kind: PromptContext['route']['kind']; cues: string[]; cadence?: string } {
  return { kind: route.kind, cues: [...route.cues], ...(route.cadence !== undefined ? { cadence: route.cadence } : {}) };
}

/** The fields of a waiting row's event that let a decision resume the turn (also after a restart). */
export function requestOf(waiting: { call_id?: string; userText: string; route: PromptContext['route'] }) {
  return { ...(waiting.call_id ? { call_id: waiting.call_id } : {}), user_text: waiting.userText, route: routeOf(waiting.route) };
}

/** A driver chunk as the call recorded in the conversation. */
function toCall(intent: Intent): ToolCall {
  const id = intent.call_id ?? createId('call');
  switch (intent.type) {
    case 'invoke':
      return { id, capability: intent.capability, args: intent.args };
    case 'propose':
      return { id, capability: CONTROL.propose, args: { capability: intent.capability, arguments: intent.args, ...(intent.reason ? { reason: intent.reason } : {}) } };
    case 'ask':
      return { id, capability: CONTROL.ask, args: { question: intent.question, options: intent.options } };
    case 'standing':
      return { id, capability: CONTROL.standing, args: { request: intent.text, ...(intent.cadence ? { cadence: intent.cadence } : {}) } };
    default:
      return intent satisfies never;
  }
}

/** Accepts both a bare result and `{ result, violations }`. */
export function toOutcome(value: CapabilityResult | InvokeOutcome): InvokeOutcome {
  return 'result' in value && !('content' in value) ? value : { result: value as CapabilityResult };
}

function isModelError(error: unknown): error is ModelError {
  if (error instanceof ModelError) return true;
  const e = error as Partial<ModelError> | null;
  return !!e && e.name === 'ModelError' && typeof e.code === 'string' && typeof e.recoverable === 'boolean';
}

/** Sums usage over steps (a tool step's usage is shown on the next assistant row). */
function addUsage(a: Usage | undefined, b: Usage): Usage {
  if (!a) return b;
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    cache_creation_input_tokens: (a.cache_creation_input_tokens ?? 0) + (b.cache_creation_input_tokens ?? 0),
    cache_read_input_tokens: (a.cache_read_input_tokens ?? 0) + (b.cache_read_input_tokens ?? 0),
  };
}

/** A citation with its span (if any) cut to the `length` of the reply's text shown so far. */
function citedWithin(citation: Citation, length: number): Citation {
  if (!citation.range) return citation;
  const end = Math.min(Math.max(0, citation.range.end), length);
  return { ...citation, range: { start: Math.min(Math.max(0, citation.range.start), end), end } };
}
