import { type CapabilityResult } from '../envelope';
import { textResult } from '../results';
import type { SkillOfferRow } from '../fold';
import { createId } from '../ids';
import type { Principal } from '../principal';
import { resolveSkillOffer } from '../slash/offers';
import type { Waiting } from '../turn';
import { waitingOf } from './derive';
import { recordMessage } from '../history';
import type { HostContext, TurnParts } from './hostContext';
import { NothingWaitingError, type HostDecision, type HostInvoke } from './hostTypes';
import type { Leases } from './leases';
import { enqueue, stateOf, type LiveThread, type LiveThreads } from './liveThread';
import type { Turns } from './turns';

/** What waits for the user, and what a decision does: approvals (a chip's too), proposals, questions, skill offers. */
export interface Decisions {
  /** Decides a pending row; throws `NothingWaitingError` when nothing waits under that id. */
  decide(principal: Principal, request: HostDecision): Promise<void>;
  /** Runs a chip on the thread; a mutate that needs approval gets an approval row instead. */
  invoke(t: LiveThread, principal: Principal, request: HostInvoke): Promise<CapabilityResult>;
  /** Shows a chip's approval row for a call another door holds (`ThreadHost.requestApproval`). */
  requestApproval(t: LiveThread, request: { id: string; capability: string; args: unknown; reason: string }): Promise<void>;
}

const nothingWaiting = (id: string) => new NothingWaitingError(`Nothing in this thread is waiting for an answer with id "${id}".`);

function checkDecision(parts: TurnParts, waiting: Waiting, request: HostDecision): void {
  const allowed = parts.decisionsFor(waiting);
  if (!allowed.includes(request.decision)) {
    throw new NothingWaitingError(`The ${waiting.kind} "${waiting.id}" takes ${allowed.join(' or ')}, not "${request.decision}".`);
  }
  if (request.decision === 'answer' && !request.answer?.trim()) throw new NothingWaitingError(`Answering "${waiting.id}" needs an answer.`);
}

export function createDecisions(ctx: HostContext, threads: LiveThreads, leases: Leases, turns: Turns): Decisions {
  /** A chip's approval: no model turn waits on it, so approving runs the capability and nothing else. */
  const decideChipApproval = async (t: LiveThread, waiting: Extract<Waiting, { kind: 'approval' }>, request: HostDecision) => {
    // Decided while queued (a double click): the second finds nothing waiting.
    if (!waitingOf(stateOf(t), waiting.id)) throw new NothingWaitingError(`"${waiting.id}" was already decided.`);
    const approved = request.decision === 'approve';
    // A row another door asked for (REST, MCP): its waiting job takes the decision, once.
    const door = (await ctx.options.doorApprovals?.decided(t.principal, waiting.id, approved)) ?? null;
    const settled = door && 'settled' in door ? door.settled : door && 'ended' in door ? 'denied' : null;
    t.emit({ type: 'approval.resolved', approval_id: waiting.id, decision: settled ?? (approved ? 'approved' : 'denied') });
    if (door && 'ended' in door) throw new NothingWaitingError(door.ended);
    if (!approved || settled) return;
    const { result } = await turns.run(t, waiting.capability, waiting.args, undefined, undefined, door && 'run' in door ? door : undefined);
    recordMessage(t.history.slice(), t.emit, undefined, { role: 'tool', capability: waiting.capability, title: waiting.title, args: waiting.args, result });
  };

  /** A skill offer: saved or dismissed, after what is queued on the thread. */
  const decideOffer = (t: LiveThread, principal: Principal, offer: SkillOfferRow, request: HostDecision) =>
    enqueue(t, async () => {
      const current = stateOf(t).rows.find((r): r is SkillOfferRow => r.kind === 'skill_offer' && r.id === offer.id);
      if (current?.status !== 'pending') throw nothingWaiting(offer.id);
      const directory = ctx.skillsOf(principal);
      // The deciding request's principal goes with the save: a server's per-address cap counts its client address.
      t.emit(resolveSkillOffer(current, request.decision, request.answer, (input) => directory.save(input, principal)));
    });

  return {
    async decide(principal, request) {
      const t = await threads.opened(principal, request.threadId, false);
      if (!t) throw nothingWaiting(request.id);
      await leases.busy(t, async () => {
        const parts = ctx.loaded() ?? (await ctx.load());
        const state = stateOf(t);
        const offer = state.rows.find((r): r is SkillOfferRow => r.kind === 'skill_offer' && r.id === request.id && r.status === 'pending');
        if (offer) return decideOffer(t, principal, offer, request);
        const waiting = waitingOf(state, request.id);
        if (!waiting) throw nothingWaiting(request.id);
        checkDecision(parts, waiting, request);
        if (waiting.kind === 'approval' && !waiting.call_id) return enqueue(t, () => decideChipApproval(t, waiting, request));
        return enqueue(t, async () => {
          // Decided while queued (a double click): the second finds nothing waiting.
          if (!waitingOf(stateOf(t), request.id)) throw new NothingWaitingError(`"${request.id}" was already decided.`);
          await turns.withTurn(t, (turnId, signal) =>
            parts.resumeTurn({ ...turns.baseOptions(t, turnId, signal), waiting, decision: request.decision, ...(request.answer !== undefined ? { answer: request.answer } : {}) }),
          );
        });
      });
    },
    async invoke(t, principal, { capability, args }) {
      const { confirmationReason, requestOf } = ctx.loaded() ?? (await ctx.load());
      const info = ctx.registryOf(principal).describe().find((c) => c.name === capability);
      const confirm = info ? confirmationReason(info) : null;
      if (info && confirm) {
        // A chip never skips the approval a model call would need.
        t.emit({
          type: 'approval.requested',
          approval_id: createId('approval'),
          capability: info.name,
          title: info.title,
          args,
          reason: confirm,
          ...requestOf({ userText: '', route: { kind: 'one_shot', cues: [] } }),
        });
        return textResult(`${info.title} waits for your approval before it runs.`, { waiting_for_approval: true });
      }
      const { result } = await turns.run(t, capability, args);
      recordMessage(t.history.slice(), t.emit, undefined, { role: 'tool', capability, title: info?.title ?? capability, args, result });
      return result;
    },
    async requestApproval(t, { id, capability, args, reason }) {
      const { requestOf } = ctx.loaded() ?? (await ctx.load());
      const info = ctx.registryOf(t.principal).describe().find((c) => c.name === capability);
      t.emit({ type: 'approval.requested', approval_id: id, capability, title: info?.title ?? capability, args, reason, ...requestOf({ userText: '', route: { kind: 'one_shot', cues: [] } }) });
    },
  };
}
