import { suggest } from '../anticipation';
import type { CapabilityDescriptor } from '../capability';
import type { CapabilityResult } from '../envelope';
import type { Composer } from '../events';
import { isWaiting, type ProposalRow, type ThreadState, type UserRow } from '../fold';
import { createId } from '../ids';
import type { ActiveSkill, ModelDriver } from '../model';
import { createOfflineDriver } from '../offlineDriver';
import type { Principal } from '../principal';
import type { CapabilityInfo } from '../registry';
import { loadSkillText, readSkillMessage } from '../skillField';
import { selectModel } from '../slash/models';
import type { TurnBaseOptions, TurnResult } from '../turn';
import { unreportedViolations, violationsOf } from './derive';
import type { HostContext, TurnParts } from './hostContext';
import type { DoorApprovalRun, HostTurn } from './hostTypes';
import { stateOf, type LiveThread, type LiveThreads } from './liveThread';
import { launchedResult, subThreadCall, subThreadLaunch } from './subThread';
import type { SubThreads } from './subThreads';

/** How the host runs a model turn and a capability call on a thread (the turn loop itself loads on first use). */
export interface Turns {
  /**
   * Runs one capability; one started by a turn also stops when the turn is stopped. `via`: an
   * approved job of another door, run in the thread under its own id through its own door.
   */
  run(t: LiveThread, capability: string, args: unknown, turnId?: string, callId?: string, via?: DoorApprovalRun): Promise<{ result: CapabilityResult; invocationId: string }>;
  /** Runs a turn under its own id and controller (the Stop button cancels it; in a sub-thread, so does the parent's). */
  withTurn(t: LiveThread, step: (turnId: string, signal: AbortSignal) => Promise<TurnResult | void>): Promise<void>;
  /** What every turn on the thread starts from: the model, the whitelist, the history, the skills, the reminders. */
  baseOptions(t: LiveThread, turnId: string, signal: AbortSignal): TurnBaseOptions;
  /** The user's message as one turn: to a command-line harness, a sub-thread or the model. */
  send(t: LiveThread, principal: Principal, request: TurnSend): Promise<void>;
}

/**
 * A send as a turn takes it: an edit names the shown message it makes a new version of and the
 * reply (or `root`) before it; a regeneration names the message it answers `again`.
 */
export type TurnSend = Omit<HostTurn, 'edits'> & { edits?: { row: UserRow; before: string }; again?: string };

/** The turn's whitelist, in the registry's order. */
function whitelist(ctx: HostContext, state: ThreadState, principal: Principal): readonly CapabilityInfo[] {
  const own = ctx.registryOf(principal);
  // An MCP tool whose view alone may call it (MCP Apps `visibility: ["app"]`) is not the model's to call.
  const all = own.describe().filter((c) => !appOnly(own.get(c.name)));
  const names = ctx.options.whitelist?.({ view: state.activeView, composer: state.composer });
  if (!names) return all;
  const allowed = new Set(names);
  return all.filter((c) => allowed.has(c.name));
}

function appOnly(d: CapabilityDescriptor | undefined): boolean {
  const visibility = d?.source?.type === 'mcp' ? (d.source.visibility ?? d.source.app?.visibility) : undefined;
  return visibility !== undefined && !visibility.includes('model');
}

/** A SKILL.md capability with its whole body, or null. */
function registrySkill(ctx: HostContext, name: string): ActiveSkill | null {
  const d = ctx.registry.get(name);
  const source = d?.source as { type: string; body?: unknown } | undefined;
  return d && source?.type === 'skill' && typeof source.body === 'string' ? { name, title: d.title, body: source.body } : null;
}

/** Active skills with their whole bodies: slash skills by node path, SKILL.md capabilities by name. */
function activeSkills(ctx: HostContext, t: LiveThread, state: ThreadState): ActiveSkill[] {
  return state.activeSkills.flatMap((name) => {
    const skill = name.includes('/') ? ctx.skillsOf(t.principal).active(name) : registrySkill(ctx, name);
    return skill ? [skill] : [];
  });
}

/** The offline model of each host that has another driver, made on first use. */
const offlineDrivers = new WeakMap<HostContext, ModelDriver>();

/** The composer's model: `Model/offline` answers with the offline model, another node path or id goes to the driver. */
function modelFor(ctx: HostContext, composer: Composer): { driver: ModelDriver; model?: string } {
  const { driver } = ctx;
  const selection = selectModel(composer.modelName);
  if (selection.kind === 'offline') {
    if (driver.info.id === 'offline') return { driver };
    let offline = offlineDrivers.get(ctx);
    if (!offline) offlineDrivers.set(ctx, (offline = createOfflineDriver()));
    return { driver: offline };
  }
  return selection.kind === 'model' ? { driver, model: selection.id } : { driver };
}

/** After a turn: a multi-step request run twice gets one offer to save it as a skill (its drafting sits with the turn parts, in by now). */
function offerSkill(ctx: HostContext, t: LiveThread): Promise<void> | void {
  const offer = ({ draftSkillOffer }: TurnParts) => {
    const draft = draftSkillOffer(stateOf(t).rows);
    if (draft) t.emit({ type: 'skill.offered', offer_id: createId('offer'), ...draft });
  };
  const parts = ctx.loaded();
  return parts ? offer(parts) : ctx.load().then(offer);
}

export function createTurns(ctx: HostContext, threads: LiveThreads, subThreads: SubThreads): Turns {
  const { options, registry } = ctx;

  const run: Turns['run'] = async (t, capability, args, turnId, callId, via) => {
    // A SKILL.md capability that launches a sub-thread: the work goes there; the call gets where it went.
    const sub = subThreadCall(stateOf(t), registry.get(capability), args);
    if (sub) {
      const childId = subThreads.launch(t, turnId, sub.launch, sub.message, false);
      return { result: launchedResult(sub.launch, childId), invocationId: childId };
    }
    const invocationId = via?.invocationId ?? createId('inv');
    const controller = new AbortController();
    const turnSignal = turnId ? t.running.get(turnId)?.signal : undefined;
    t.running.set(invocationId, controller);
    try {
      const marking = threads.markOpen(t);
      if (marking instanceof Promise) await marking;
      const result = await (via?.run ?? ctx.runCapability)(capability, args, {
        registry: ctx.registryOf(t.principal),
        emit: t.emit,
        threadKey: t.key,
        signal: turnSignal ? AbortSignal.any([controller.signal, turnSignal]) : controller.signal,
        invocationId,
        principal: t.principal,
        ...(turnId ? { turnId } : {}),
        ...(callId ? { callId } : {}),
        ...(options.probes ? { probes: options.probes } : {}),
      });
      return { result, invocationId };
    } finally {
      t.running.delete(invocationId);
    }
  };

  const baseOptions: Turns['baseOptions'] = (t, turnId, signal) => {
    const state = stateOf(t);
    const capabilities = whitelist(ctx, state, t.principal);
    const allowed = new Set(capabilities.map((c) => c.name));
    const directory = ctx.skillsOf(t.principal);
    return {
      ...modelFor(ctx, state.composer),
      capabilities,
      history: t.history,
      emit: t.emit,
      signal,
      turnId,
      alignment: ctx.alignment,
      skills: activeSkills(ctx, t, state),
      // A SKILL.md consulted mid-turn is folded into activeSkills: the turn's next step has its body.
      skillsNow: () => activeSkills(ctx, t, stateOf(t)),
      reminders: [options.reminders?.trim() ?? '', directory.agentNote(state.composer.agentName), directory.advertised()].filter(Boolean).join('\n\n'),
      suggestions: suggest(ctx.anticipation, state.activeView, state.lastCapability).filter((s) => allowed.has(s.capability)),
      ...(options.maxSteps ? { maxSteps: options.maxSteps } : {}),
      ...(options.readAttachment ? { readAttachment: options.readAttachment(t.principal) } : {}),
      invoke: async (capability, args, id, callId, streamed) => {
        // A call whose arguments streamed into a card runs as that card's invocation.
        const { result, invocationId } = await run(t, capability, args, id, callId, streamed ? { invocationId: streamed, run: ctx.runCapability } : undefined);
        return { result, violations: violationsOf(stateOf(t), invocationId) };
      },
    };
  };

  const withTurn: Turns['withTurn'] = async (t, step) => {
    const turnId = createId('turn');
    const controller = new AbortController();
    t.running.set(turnId, controller);
    const unlink = subThreads.linkToParent(t, controller);
    let outcome: TurnResult['outcome'] | 'interrupted' = null;
    try {
      const marking = threads.markOpen(t);
      if (marking instanceof Promise) await marking;
      outcome = (await step(turnId, controller.signal))?.outcome ?? null;
      const offering = offerSkill(ctx, t);
      if (offering) await offering;
    } catch (error) {
      outcome = 'failed';
      throw error;
    } finally {
      t.running.delete(turnId);
      unlink();
      subThreads.turnEnded(t, turnId, outcome);
    }
  };

  const send: Turns['send'] = (t, principal, { threadId, text, skill, edits, again, attachments }) =>
    withTurn(t, async (turnId, signal) => {
      // Loaded on the first turn; from then on the turn starts in the same task as the send.
      const { runHarnessTurn, takeTurn } = ctx.loaded() ?? (await ctx.load());
      const retrieve = options.retrieve;
      // A request in the legacy text form (`[load_skill /name]` then the task) is read as the field.
      const message = readSkillMessage(text, skill);
      // An edit or a regeneration: the host writes what makes the new version, so the turn's history is the shown one's.
      const written = edits !== undefined || again !== undefined;
      if (edits !== undefined) {
        const { row, before } = edits;
        t.emit({ type: 'message.created', message_id: createId('msg'), role: 'user', text: message.text, ...(message.skill !== undefined ? { skill: message.skill } : {}), turn_id: turnId, version_of: row.version_of ?? row.id, branch: before, ...(attachments?.length ? { attachments: [...attachments] } : {}) });
      } else if (again !== undefined) t.emit({ type: 'reply.regenerated', message_id: again, reply_id: createId('reply') });
      const state = stateOf(t);
      // Under a command-line harness the text goes to it as typed; the chat's model is not asked.
      const harnessNode = state.composer.harness ? ctx.catalog.get(state.composer.harness) : undefined;
      if (harnessNode?.nodeType === 'Harness' && harnessNode.commands?.length) {
        return runHarnessTurn({
          node: harnessNode,
          harness: options.harnesses?.[harnessNode.path],
          // The harness gets what it got before the field: the directive, then the task.
          text: skill !== undefined ? loadSkillText(skill, text) : text,
          ...(message.skill !== undefined ? { shown: message } : {}),
          ...(written ? { written } : {}),
          emit: t.emit,
          // The log is the history: the thread's copy grows from the model.message events.
          history: t.history.slice(),
          turnId,
          threadId,
          user: principal.user,
          signal,
        });
      }
      const directory = ctx.skillsOf(principal);
      const launch = subThreadLaunch(state, message, directory);
      if (launch) return void subThreads.launch(t, turnId, launch, message);
      const rowsBefore = state.rows.length;
      const proposals = state.rows.filter((r): r is ProposalRow => r.kind === 'proposal' && isWaiting(r));
      const result = await takeTurn({
        ...baseOptions(t, turnId, signal),
        ...message,
        ...(written ? { written } : {}),
        ...(attachments?.length ? { attachments } : {}),
        loadSkill: (name) => {
          const slash = directory.load(name);
          return typeof slash === 'string' ? (registrySkill(ctx, name.slice(1)) ?? slash) : slash;
        },
        ...(options.router ? { router: options.router } : {}),
        violations: unreportedViolations(state),
        ...(retrieve ? { retrieve: (query: string, s: AbortSignal) => retrieve({ threadId, text: query, view: state.activeView, signal: s }) } : {}),
      });
      // A proposal the user accepted in words ("yes, do that") ran in this turn: it is decided, not waiting for a click.
      if (proposals.length) {
        const ran = new Set(stateOf(t).rows.slice(rowsBefore).flatMap((r) => (r.kind === 'invocation' ? [r.capability] : [])));
        for (const p of proposals) if (ran.has(p.capability)) t.emit({ type: 'proposal.resolved', proposal_id: p.id, decision: 'accepted' });
      }
      return result;
    });

  return { run, withTurn, baseOptions, send };
}
