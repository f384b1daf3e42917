import type { AttachmentRef } from './events/messages';
import type { Suggestion } from './anticipation';
import type { DecisionKind } from './decisions';
import { recordMessage } from './history';
import { runModelLoop, toOutcome, type LoopResult, type TurnInvoke, type TurnOutcome, type Waiting } from './engine/loop';
import { routeAnswer, routeIntent } from './prompt/router';
import { activateDirectiveSkill, readSkillDirective, type SkillLoader } from './engine/skillDirective';
import { loadSkillText, readSkillMessage } from './skillField';
import { type CapabilityResult } from './envelope';
import { errorResult, textResult } from './results';
import type { Emit } from './events';
import { createId } from './ids';
import {
  CONTROL,
  DECLINED_META,
  type ActiveSkill,
  type Alignment,
  type AttachmentReader,
  type CorpusPassage,
  type ModelDriver,
  type ModelMessage,
  type PromptContext,
  type Route,
  type ViolationNote,
} from './model';
import type { CapabilityInfo } from './registry';

export type { InvokeOutcome, TurnInvoke, TurnOutcome, Waiting } from './engine/loop';

/** What every turn needs besides the user's words. */
export interface TurnBaseOptions {
  driver: ModelDriver;
  /** The turn's whitelist, in the registry's stable order (slab [2]). */
  capabilities: readonly CapabilityInfo[];
  /** The conversation so far; the turn appends to a copy and returns it. */
  history: readonly ModelMessage[];
  emit: Emit;
  /** Runs a capability the model asked for (the workspace wires cancellation, jobs and checks). */
  invoke: TurnInvoke;
  /** Stops the model stream; the transcript says the turn was stopped. */
  signal?: AbortSignal;
  /** @default a fresh `turn_…` id */
  turnId?: string;
  /** Model calls in one turn before it gives up. @default 8 */
  maxSteps?: number;
  /** @default 'strict' */
  alignment?: Alignment;
  /** The composer's model selection; the driver's default when absent. */
  model?: string;
  /** Slab [3]: active skills with their whole bodies. @default [] */
  skills?: readonly ActiveSkill[];
  /** Slab [4]: per-organisation reminders. @default '' */
  reminders?: string;
  /** Slab [5]: suggested next verbs. @default [] */
  suggestions?: readonly Suggestion[];
  /** Slab [3] as it is now, read before each later step of the turn (a skill consulted mid-turn joins it). @default `skills` */
  skillsNow?: () => readonly ActiveSkill[];
  /** Reads the bytes of the files the thread's messages carry, for a driver that sends them. @default none */
  readAttachment?: AttachmentReader;
}

export interface TurnOptions extends TurnBaseOptions {
  /** The user's message (with `skill`, the task alone). */
  text: string;
  /**
   * The user's message is in the transcript already (the host wrote it: an edit, or the message
   * a regeneration answers again): the turn adds no row for it; the model still gets it.
   */
  written?: boolean;
  /**
   * The skill the message loads, by its slash name (`/summarize`): with `loadSkill` its
   * instructions join slab [3] and the model gets the task alone. A `text` in the legacy form
   * (`[load_skill /name]` before the task) is read as this field.
   */
  skill?: string;
  /** Files the user's message carries (ids and words; a driver reads the bytes). @default none */
  attachments?: readonly AttachmentRef[];
  /** Slab [7]: passages for this turn. @default [] */
  corpus?: readonly CorpusPassage[];
  /** Retrieves slab [7] for the message; a failure becomes a recoverable row and the turn goes on without it. */
  retrieve?: (text: string, signal: AbortSignal) => Promise<readonly CorpusPassage[]>;
  /** Checks that failed since the last turn; the reply acknowledges them. @default [] */
  violations?: readonly ViolationNote[];
  /** @default routeIntent */
  router?: (text: string) => Route;
  /**
   * Resolves the skill of a message's `skill`: its instructions join slab [3] from this turn on
   * and the model gets the task alone. Without it the model gets the directive and the task, as
   * before the field (`[load_skill /name]` then the task).
   */
  loadSkill?: SkillLoader;
}

export interface ResumeOptions extends TurnBaseOptions {
  /** What the turn stopped on. */
  waiting: Waiting;
  decision: DecisionKind;
  /** With `answer`: the chosen or typed answer. */
  answer?: string;
}

export interface TurnResult {
  /** The conversation, with this turn appended. */
  messages: ModelMessage[];
  /** How the turn ended; null when no model turn ran (a dismissed proposal). */
  outcome: TurnOutcome | null;
  /** The proposal, approval or question the turn now waits on. */
  waiting: Waiting | null;
}

/**
 * One user turn: the user's row, then model steps with exactly one intent —
 * answer, propose (a row to accept) or invoke (reads sync-continue, a
 * confirmed mutate waits for approval). The intent router's reading and the
 * alignment mode go to the driver; the engine enforces them. Model errors
 * become a `turn.error` row; nothing the user typed is lost.
 * @example
 * const { messages, waiting } = await takeTurn({ text, driver, capabilities, history, emit, invoke });
 */
export async function takeTurn(options: TurnOptions): Promise<TurnResult> {
  const { text, emit } = options;
  const turnId = options.turnId ?? createId('turn');
  const signal = options.signal ?? new AbortController().signal;
  const messages = [...options.history];
  const directive = options.loadSkill ? readSkillDirective(text, options.skill) : null;
  // The transcript keeps what the user sent (the task, the skill a field); the model gets the task alone.
  const task = directive?.task ?? (options.skill !== undefined ? loadSkillText(options.skill, text) : text);
  const message = readSkillMessage(text, options.skill);
  const files = options.attachments?.length ? { attachments: options.attachments.map((f) => ({ ...f })) } : {};
  if (!options.written) emit({ type: 'message.created', message_id: createId('msg'), role: 'user', text: message.text, ...(message.skill !== undefined ? { skill: message.skill } : {}), turn_id: turnId, ...files });
  emit({ type: 'turn.started', turn_id: turnId, driver: options.driver.info });
  for (const m of danglingResults(options.history, options.capabilities)) recordMessage(messages, emit, turnId, m);
  recordMessage(messages, emit, turnId, { role: 'user', text: task, ...files });
  let result: LoopResult = { outcome: 'failed', waiting: null };
  try {
    const skills = directive && options.loadSkill ? activateDirectiveSkill(directive, options.skills ?? [], options.loadSkill, emit, turnId) : options.skills;
    let corpus = options.corpus ?? [];
    if (options.retrieve) {
      try {
        corpus = await options.retrieve(task, signal);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        emit({ type: 'turn.error', turn_id: turnId, code: 'retrieval_failed', message: `Could not search the workspace's documents (${message}); answering without them.`, recoverable: true });
      }
    }
    const prompt = promptOf({ ...options, ...(skills ? { skills } : {}) }, (options.router ?? routeIntent)(task), false, corpus, options.violations ?? []);
    if (directive && options.loadSkill) prompt.loadedSkill = directive.name;
    result = await runModelLoop(loopInput(options, turnId, signal, prompt, task, messages, false));
  } finally {
    emit({ type: 'turn.done', turn_id: turnId, outcome: result.outcome });
  }
  return { messages, outcome: result.outcome, waiting: result.waiting };
}

/**
 * Resumes a turn with the user's decision: an accepted proposal or approved
 * call runs and the model goes on with its result; a denial is reported back
 * to the model; an answer goes back to the model; a dismissed proposal is
 * recorded without a model call. A decision that does not fit the row throws.
 */
export async function resumeTurn(options: ResumeOptions): Promise<TurnResult> {
  const { waiting, decision, emit } = options;
  const expected = decisionsFor(waiting);
  if (!expected.includes(decision)) {
    throw new Error(`A ${waiting.kind} (${waiting.id}) takes ${expected.join(' or ')}, not "${decision}".`);
  }
  const answer = options.answer?.trim() ?? '';
  if (decision === 'answer' && !answer) throw new Error(`Answering question ${waiting.id} needs an answer.`);

  const messages = [...options.history];
  const turnId = options.turnId ?? createId('turn');
  // A call the user wrote past was given a "not run" result already (and a chip's approval has
  // no model call): report this one as a note.
  const detached = !waiting.call_id || messages.some((m) => m.role === 'tool' && m.call_id === waiting.call_id);
  const tool = (capability: string, title: string, args: unknown, result: CapabilityResult, violations?: readonly ViolationNote[]) =>
    recordMessage(messages, emit, turnId, {
      role: 'tool',
      ...(detached ? {} : { call_id: waiting.call_id! }),
      capability,
      title,
      args,
      result,
      ...(violations?.length ? { violations } : {}),
    });

  if (waiting.kind === 'proposal') emit({ type: 'proposal.resolved', proposal_id: waiting.id, decision: decision === 'accept' ? 'accepted' : 'dismissed' });
  if (waiting.kind === 'approval') emit({ type: 'approval.resolved', approval_id: waiting.id, decision: decision === 'approve' ? 'approved' : 'denied' });
  if (waiting.kind === 'question') emit({ type: 'clarify.answered', question_id: waiting.id, answer });
  if (decision === 'dismiss' && waiting.kind === 'proposal') {
    tool(waiting.capability, waiting.title, waiting.args, declined(`The user dismissed ${waiting.title}; it was not run.`, 'dismissed'));
    return { messages, outcome: null, waiting: null };
  }

  const signal = options.signal ?? new AbortController().signal;
  emit({ type: 'turn.started', turn_id: turnId, driver: options.driver.info });
  let result: LoopResult = { outcome: 'failed', waiting: null };
  try {
    let route = waiting.route;
    let userText = waiting.userText;
    let ran = false;
    if (waiting.kind === 'question') {
      tool(CONTROL.ask, 'Question', { question: waiting.question }, textResult(answer));
      if (waiting.purpose === 'route') {
        // "Keep watching" keeps the cadence the user gave in the request ("every week").
        const chosen = routeAnswer(answer);
        route = chosen.kind === 'standing' && !chosen.cadence && route?.cadence ? { ...chosen, cadence: route.cadence } : chosen;
      }
      userText = `${userText}\n${answer}`;
    } else if (decision === 'deny') {
      tool(waiting.capability, waiting.title, waiting.args, declined(`The user denied ${waiting.title}; it was not run. Do not retry it.`, 'denied'));
    } else {
      const outcome = toOutcome(await options.invoke(waiting.capability, waiting.args, turnId, waiting.call_id));
      tool(waiting.capability, waiting.title, waiting.args, outcome.result, outcome.violations);
      ran = true;
    }
    if (signal.aborted) {
      emit({ type: 'turn.error', turn_id: turnId, code: 'cancelled', message: 'Stopped before the reply finished.', recoverable: true });
      result = { outcome: 'cancelled', waiting: null };
    } else {
      const prompt = promptOf(options, route, waiting.kind === 'question', [], []);
      result = await runModelLoop(loopInput(options, turnId, signal, prompt, userText, messages, ran));
    }
  } finally {
    emit({ type: 'turn.done', turn_id: turnId, outcome: result.outcome });
  }
  return { messages, outcome: result.outcome, waiting: result.waiting };
}

/** The decisions a waiting row takes. */
export function decisionsFor(waiting: Pick<Waiting, 'kind'>): ReadonlyArray<DecisionKind> {
  return waiting.kind === 'proposal' ? ['accept', 'dismiss'] : waiting.kind === 'approval' ? ['approve', 'deny'] : ['answer'];
}

/**
 * `takeTurn` for callers that keep only the conversation.
 * @example
 * history = await runTurn({ text, driver, capabilities, history, emit, invoke });
 */
export async function runTurn(options: TurnOptions): Promise<ModelMessage[]> {
  return (await takeTurn(options)).messages;
}

function promptOf(
  options: TurnBaseOptions,
  route: Route,
  asked: boolean,
  corpus: readonly CorpusPassage[],
  violations: readonly ViolationNote[],
): PromptContext {
  return {
    alignment: options.alignment ?? 'strict',
    route,
    asked,
    ...(options.model ? { model: options.model } : {}),
    skills: options.skills ?? [],
    reminders: options.reminders ?? '',
    suggestions: options.suggestions ?? [],
    corpus,
    violations,
    ...(options.readAttachment ? { readAttachment: options.readAttachment } : {}),
  };
}

function loopInput(
  options: TurnBaseOptions,
  turnId: string,
  signal: AbortSignal,
  prompt: PromptContext,
  userText: string,
  messages: ModelMessage[],
  ran: boolean,
) {
  const { driver, capabilities, emit, invoke, maxSteps = 8 } = options;
  return { driver, capabilities, emit, invoke, signal, turnId, maxSteps, prompt, userText, messages, ran, ...(options.skillsNow ? { skillsNow: options.skillsNow } : {}) };
}

function declined(text: string, how: 'denied' | 'dismissed' | 'superseded'): CapabilityResult {
  return { ...errorResult(text), _meta: { [DECLINED_META]: how } };
}

/**
 * A copy of the history in which every tool call still waiting for the user
 * (the user wrote again instead of deciding) has a "not run" result, so the
 * conversation stays well-formed for the model. A later decision on such a
 * call is reported as a note.
 */
export function detachDangling(history: readonly ModelMessage[], capabilities: readonly CapabilityInfo[] = []): ModelMessage[] {
  return [...history, ...danglingResults(history, capabilities)];
}

/** The "not run" results `detachDangling` adds, for every tool call still waiting for the user. */
export function danglingResults(history: readonly ModelMessage[], capabilities: readonly CapabilityInfo[] = []): ModelMessage[] {
  const messages: ModelMessage[] = [];
  const answered = new Set(history.flatMap((m) => (m.role === 'tool' && m.call_id ? [m.call_id] : [])));
  for (const m of history) {
    if (m.role !== 'assistant' || !m.calls) continue;
    for (const call of m.calls) {
      if (answered.has(call.id)) continue;
      const title = capabilities.find((c) => c.name === call.capability)?.title ?? call.capability;
      messages.push({
        role: 'tool',
        call_id: call.id,
        capability: call.capability,
        title,
        args: call.args,
        result: declined('Not run: the user wrote a new message before deciding.', 'superseded'),
      });
    }
  }
  return messages;
}
