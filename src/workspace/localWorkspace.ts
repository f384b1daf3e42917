import { suggest, type AnticipationMap } from '../runtime/anticipation';
import type { CapabilityDescriptor } from '../runtime/capability';
import { createThreadContext, type ThreadContext } from '../runtime/engine/context';
import { historyFromEvents } from '../runtime/engine/replay';
import { createEventLog, type EventLog } from '../runtime/eventLog';
import type { ActiveView, Composer, ThreadEvent } from '../runtime/events';
import { foldAll, initialThreadState, type SkillOfferRow, type ThreadState } from '../runtime/fold';
import { createId } from '../runtime/ids';
import { invoke } from '../runtime/invoke';
import type { PostconditionProbes } from '../runtime/postconditions';
import type { ActiveSkill, Alignment, CorpusPassage, ModelDriver, ModelMessage, Route } from '../runtime/model';
import { createOfflineDriver } from '../runtime/offlineDriver';
import { createRegistry, type CapabilityInfo, type Registry } from '../runtime/registry';
import type { Catalog } from '../runtime/slash/catalog';
import { selectModel } from '../runtime/slash/models';
import type { CatalogNode } from '../runtime/slash/nodes';
import { draftSkillOffer, resolveSkillOffer } from '../runtime/slash/offers';
import { createSkillDirectory, type SkillDirectory } from '../runtime/slash/skillDirectory';
import { decisionsFor, resumeTurn, takeTurn, type TurnBaseOptions, type TurnResult, type Waiting } from '../runtime/turn';
import type { DecisionRequest, ProviderRequest, SaveSkillRequest, WorkspaceAdapter } from './types';

/** The host's hooks behind the Connect and Disconnect skills (e.g. signing in to Claude Code). */
export interface ProviderHooks {
  /** Connects a provider (`ClaudeCode`, `Copilot`, …); reject with a message the user can act on. */
  connect(provider: string, context: { threadId: string; user: string }): Promise<void> | void;
  disconnect(provider: string, context: { threadId: string; user: string }): Promise<void> | void;
}

export interface LocalWorkspaceOptions {
  /** The verbs this workspace offers. */
  capabilities: readonly CapabilityDescriptor[];
  /** The model that answers. @default the offline driver */
  driver?: ModelDriver;
  /** `strict` proposes anything the user did not name; `loose` runs a single clear match. @default 'strict' */
  alignment?: Alignment;
  /** Suggested next verbs by `${view.kind}::${lastCapability | 'none'}`. @default {} */
  anticipation?: AnticipationMap;
  /** Clock for event timestamps. @default Date.now */
  now?: () => number;
  /** A turn's whitelist by view and composer, as capability names; undefined means all. @default all */
  whitelist?: (scope: { view: ActiveView | null; composer: Composer }) => readonly string[] | undefined;
  /** Per-organisation reminders for the model (cached prompt slab [4]). @default '' */
  reminders?: string;
  /** Retrieves passages for a message (uncached slab [7]); a failure shows a row and the turn goes on. */
  retrieve?: (query: { threadId: string; text: string; view: ActiveView | null; signal: AbortSignal }) => Promise<readonly CorpusPassage[]>;
  /** Model calls per turn before it gives up. @default 8 */
  maxSteps?: number;
  /**
   * Reads a message as one-shot, standing or ambiguous (ambiguous asks one
   * question). A host that wants every standing request confirmed before it
   * takes it over can turn `standing` into `ambiguous` here. @default routeIntent
   */
  router?: (text: string) => Route;
  /** Makes each thread's event log (the server keeps them in SQLite; a restored thread replays its events). @default an in-memory log */
  eventLog?: (threadId: string) => EventLog;
  /** How postconditions look at the workspace (the host's row counter, a file lister). @default none */
  probes?: PostconditionProbes;
  /** Runs every capability the workspace invokes (the server routes them through its doors' executor). @default invoke */
  runCapability?: typeof invoke;
  /** The current user: `{user}` in node queries, owner of private skills. @default 'me' */
  user?: string;
  /** The current space: `{space}` in node queries. @default 'default' */
  space?: string;
  /** Extra skills and nodes (a host's or a space's) added to the built-in catalog. Ignored with `catalog`. */
  skills?: readonly CatalogNode[];
  /** A node catalog to share, e.g. between the workspaces of two users of one space. @default built-in skills, agents, models and harnesses plus `skills` */
  catalog?: Catalog;
  /** Connect / Disconnect skills call these; without them the workspace says it cannot connect. */
  providers?: ProviderHooks;
}

export interface LocalWorkspace extends WorkspaceAdapter {
  /** The registry behind the manifest, for hosts that add tooling around it. */
  readonly registry: Registry;
  /** Sets the thread's composer selections (harness, agent, model); emits `composer.changed`. */
  setComposer(request: { threadId: string; composer: Composer }): void;
  /** The user's slash skills: discovery, saving, and what the model is told about them. */
  readonly skills: SkillDirectory;
  /** Runs a node query for this user and space; a bad query rejects with the `NodeQueryError` message. */
  query(request: { threadId: string; q: string }): Promise<CatalogNode[]>;
  /** Saves a skill under `{user}/Skill` (private) or `{space}/Skill`; emits `skill.saved`; rejects with a `SkillFileError`. */
  saveSkill(request: SaveSkillRequest): Promise<CatalogNode>;
  /** Calls the host's `providers.connect`; rejects clearly without one. */
  connect(request: ProviderRequest): Promise<void>;
  /** Calls the host's `providers.disconnect`; rejects clearly without one. */
  disconnect(request: ProviderRequest): Promise<void>;
}

/** A row waiting for the user: what to do with each decision. */
type PendingDecision = (request: DecisionRequest) => Promise<void>;

interface ThreadRuntime {
  log: EventLog;
  context: ThreadContext;
  history: ModelMessage[];
  /** Abort controllers of running turns and invocations, by id. */
  running: Map<string, AbortController>;
  /** Proposals, approvals and questions waiting for the user, by id. */
  pending: Map<string, PendingDecision>;
  /** Turns and decisions of one thread run one after another. */
  queue: Promise<void>;
  /** The thread folded up to the last turn (skill offers read its rows). */
  state: ThreadState;
  /** Events since `state` was last brought up to date. */
  unfolded: ThreadEvent[];
}

/**
 * A workspace that runs the runtime in the page (stories, static demos, tests)
 * or on a server. The offline model answers unless another driver is given.
 * @example
 * const workspace = createLocalWorkspace({ capabilities: [add, slowReport], alignment: 'loose' });
 * <ChatSurface workspace={workspace} />
 */
export function createLocalWorkspace(options: LocalWorkspaceOptions): LocalWorkspace {
  const registry = createRegistry(options.capabilities);
  const driver = options.driver ?? createOfflineDriver();
  const alignment = options.alignment ?? 'strict';
  const anticipation = options.anticipation ?? {};
  const skillDirectory = createSkillDirectory({
    ...(options.user !== undefined ? { user: options.user } : {}),
    ...(options.space !== undefined ? { space: options.space } : {}),
    ...(options.catalog ? { catalog: options.catalog } : {}),
    ...(options.skills ? { skills: options.skills } : {}),
  });
  let offline: ModelDriver | undefined;
  const threads = new Map<string, ThreadRuntime>();

  const thread = (threadId: string): ThreadRuntime => {
    let t = threads.get(threadId);
    if (!t) {
      const log = options.eventLog?.(threadId) ?? createEventLog(options.now ? { now: options.now } : {});
      const context = createThreadContext();
      log.subscribe(context.observe, 0);
      // A thread restored from a persisted log: the model gets its conversation back, and
      // checks that failed before the restart are not acknowledged a second time.
      const restored = log.lastSeq > 0 ? historyFromEvents(log.since(0)) : [];
      if (restored.length) context.takeViolations();
      const runtime: ThreadRuntime = { log, context, history: restored, running: new Map(), pending: new Map(), queue: Promise.resolve(), state: initialThreadState, unfolded: [] };
      log.subscribe((event) => runtime.unfolded.push(event), 0);
      t = runtime;
      threads.set(threadId, t);
    }
    return t;
  };

  /** Runs one capability; one started by a turn also stops when the turn is stopped. */
  const run = async (t: ThreadRuntime, threadId: string, capability: string, args: unknown, turnId?: string) => {
    const invocationId = createId('inv');
    const controller = new AbortController();
    const turnSignal = turnId ? t.running.get(turnId)?.signal : undefined;
    t.running.set(invocationId, controller);
    try {
      const result = await (options.runCapability ?? invoke)(capability, args, {
        registry,
        emit: t.log.emit,
        threadId,
        signal: turnSignal ? AbortSignal.any([controller.signal, turnSignal]) : controller.signal,
        invocationId,
        ...(turnId ? { turnId } : {}),
        ...(options.probes ? { probes: options.probes } : {}),
      });
      return { result, invocationId };
    } finally {
      t.running.delete(invocationId);
    }
  };

  /** The turn's whitelist, in the registry's order. */
  const whitelist = (context: ThreadContext): readonly CapabilityInfo[] => {
    const all = registry.describe();
    const names = options.whitelist?.({ view: context.view, composer: context.composer });
    if (!names) return all;
    const allowed = new Set(names);
    return all.filter((c) => allowed.has(c.name));
  };

  /**
   * Active skills with their whole bodies: a slash skill (activated by a
   * load-skill directive, named by its node path) from the catalog, a
   * SKILL.md capability from the registry.
   */
  const skills = (context: ThreadContext): ActiveSkill[] =>
    context.activeSkills.flatMap((name) => {
      const skill = name.includes('/') ? skillDirectory.active(name) : registrySkill(name);
      return skill ? [skill] : [];
    });

  /** A SKILL.md capability with its whole body, or null. */
  const registrySkill = (name: string): ActiveSkill | null => {
    const d = registry.get(name);
    const source = d?.source as { type: string; body?: unknown } | undefined;
    return d && source?.type === 'skill' && typeof source.body === 'string' ? { name, title: d.title, body: source.body } : null;
  };

  /** A load-skill directive names a slash skill, or else a SKILL.md capability of the registry. */
  const loadSkill = (name: string): ActiveSkill | string => {
    const slash = skillDirectory.load(name);
    return typeof slash === 'string' ? (registrySkill(name.slice(1)) ?? slash) : slash;
  };

  /** The composer's model: `Model/offline` answers with the offline model, another node path or id goes to the driver. */
  const modelFor = (composer: Composer): { driver: ModelDriver; model?: string } => {
    const selection = selectModel(composer.modelName);
    if (selection.kind === 'offline') return { driver: driver.info.id === 'offline' ? driver : (offline ??= createOfflineDriver()) };
    return selection.kind === 'model' ? { driver, model: selection.id } : { driver };
  };

  /** Cached slab [4]: the host's reminders, the picked agent, and the skills advertised up front. */
  const reminders = (composer: Composer): string =>
    [options.reminders?.trim() ?? '', skillDirectory.agentNote(composer.agentName), skillDirectory.advertised()].filter(Boolean).join('\n\n');

  const baseOptions = (t: ThreadRuntime, threadId: string, turnId: string, signal: AbortSignal): TurnBaseOptions => {
    const capabilities = whitelist(t.context);
    const allowed = new Set(capabilities.map((c) => c.name));
    return {
      ...modelFor(t.context.composer),
      capabilities,
      history: t.history,
      emit: t.log.emit,
      signal,
      turnId,
      alignment,
      skills: skills(t.context),
      reminders: reminders(t.context.composer),
      suggestions: suggest(anticipation, t.context.view, t.context.lastCapability).filter((s) => allowed.has(s.capability)),
      ...(options.maxSteps ? { maxSteps: options.maxSteps } : {}),
      invoke: async (capability, args, id) => {
        const { result, invocationId } = await run(t, threadId, capability, args, id);
        return { result, violations: t.context.takeViolations(invocationId) };
      },
    };
  };

  /** Runs `work` after everything queued on the thread. */
  const enqueue = (t: ThreadRuntime, work: () => Promise<void>): Promise<void> => {
    const next = t.queue.then(work);
    t.queue = next.catch(() => undefined);
    return next;
  };

  /** Runs a turn under its own id and controller (the Stop button cancels it). */
  const withTurn = async (t: ThreadRuntime, threadId: string, step: (turnId: string, signal: AbortSignal) => Promise<TurnResult>) => {
    const turnId = createId('turn');
    const controller = new AbortController();
    t.running.set(turnId, controller);
    const before = t.history.length;
    try {
      const result = await step(turnId, controller.signal);
      // Capabilities the user ran directly (chips) while the turn ran stay after it.
      t.history = [...result.messages, ...t.history.slice(before)];
      if (result.waiting) t.pending.set(result.waiting.id, decider(t, threadId, result.waiting));
      offerSkill(t);
    } finally {
      t.running.delete(turnId);
    }
  };

  /** The thread's rows as of now. */
  const rowsOf = (t: ThreadRuntime) => {
    if (t.unfolded.length) t.state = foldAll(t.state, t.unfolded.splice(0));
    return t.state.rows;
  };

  /** After a turn: a multi-step request run twice gets one offer to save it as a skill. */
  const offerSkill = (t: ThreadRuntime) => {
    const draft = draftSkillOffer(rowsOf(t));
    if (draft) t.log.emit({ type: 'skill.offered', offer_id: createId('offer'), ...draft });
  };

  /** Accepts (saves through `saveSkill`) or dismisses a skill offer. */
  const decideOffer = (t: ThreadRuntime, offer: SkillOfferRow, request: DecisionRequest) =>
    enqueue(t, async () => {
      const current = rowsOf(t).find((r): r is SkillOfferRow => r.kind === 'skill_offer' && r.id === offer.id);
      if (current?.status !== 'pending') throw new Error(`Nothing in this thread is waiting for an answer with id "${offer.id}".`);
      t.log.emit(resolveSkillOffer(current, request.decision, request.answer, skillDirectory.save));
    });

  /** Runs a provider hook, or says clearly that the host gave none. */
  const provider = async (action: 'connect' | 'disconnect', { threadId, provider: name }: ProviderRequest) => {
    const hook = options.providers?.[action];
    if (!hook) {
      throw new Error(`This workspace cannot ${action} ${name}: the host passed no providers.${action} hook to createLocalWorkspace.`);
    }
    await hook(name, { threadId, user: skillDirectory.user });
  };

  const decider = (t: ThreadRuntime, threadId: string, waiting: Waiting): PendingDecision => async (request) => {
    const allowed = decisionsFor(waiting);
    if (!allowed.includes(request.decision)) {
      throw new Error(`The ${waiting.kind} "${waiting.id}" takes ${allowed.join(' or ')}, not "${request.decision}".`);
    }
    if (request.decision === 'answer' && !request.answer?.trim()) throw new Error(`Answering "${waiting.id}" needs an answer.`);
    t.pending.delete(waiting.id);
    await enqueue(t, () =>
      withTurn(t, threadId, (turnId, signal) =>
        resumeTurn({ ...baseOptions(t, threadId, turnId, signal), waiting, decision: request.decision, ...(request.answer !== undefined ? { answer: request.answer } : {}) }),
      ),
    );
  };

  return {
    registry,
    manifest: {
      capabilities: registry.describe(),
      driver: driver.info,
      alignment,
      anticipation,
    },
    send({ threadId, text }) {
      const t = thread(threadId);
      return enqueue(t, () =>
        withTurn(t, threadId, (turnId, signal) => {
          const retrieve = options.retrieve;
          return takeTurn({
            ...baseOptions(t, threadId, turnId, signal),
            text,
            loadSkill,
            ...(options.router ? { router: options.router } : {}),
            violations: t.context.takeViolations(),
            ...(retrieve ? { retrieve: (query: string, s: AbortSignal) => retrieve({ threadId, text: query, view: t.context.view, signal: s }) } : {}),
          });
        }),
      );
    },
    async invoke({ threadId, capability, args }) {
      const t = thread(threadId);
      const { result } = await run(t, threadId, capability, args);
      const title = registry.get(capability)?.title ?? capability;
      t.history = [...t.history, { role: 'tool', capability, title, args, result }];
      return result;
    },
    cancel({ threadId, id }) {
      threads.get(threadId)?.running.get(id)?.abort(new Error('Cancelled by the user.'));
    },
    async decide(request) {
      const t = threads.get(request.threadId);
      const offer = t && rowsOf(t).find((r): r is SkillOfferRow => r.kind === 'skill_offer' && r.id === request.id && r.status === 'pending');
      if (t && offer) return decideOffer(t, offer, request);
      const pending = t?.pending.get(request.id);
      if (!pending) throw new Error(`Nothing in this thread is waiting for an answer with id "${request.id}".`);
      await pending(request);
    },
    setView({ threadId, view }) {
      thread(threadId).log.emit({ type: 'view.changed', view });
    },
    setComposer({ threadId, composer }) {
      thread(threadId).log.emit({ type: 'composer.changed', composer });
    },
    skills: skillDirectory,
    async query({ q }) {
      return skillDirectory.query(q);
    },
    async saveSkill({ threadId, id, description, instructions, scope }) {
      const node = skillDirectory.save({ id, description, instructions, ...(scope ? { scope } : {}) });
      thread(threadId).log.emit({ type: 'skill.saved', path: node.path, name: node.name });
      return node;
    },
    connect: (request) => provider('connect', request),
    disconnect: (request) => provider('disconnect', request),
    subscribe(threadId, listener, { since = 0 } = {}) {
      return thread(threadId).log.subscribe(listener, since);
    },
  };
}
