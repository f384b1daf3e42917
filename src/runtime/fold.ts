import type { ThreadEvent } from './events';
import { checkEvent } from './eventChecks';
import { isWellFormedDelta } from './events/messageFastPath';
import { foldVersion, noteEdit } from './fold/branches';
import { foldDecision } from './fold/decisions';
import { foldElicitation } from './fold/elicitations';
import { foldFeedback } from './fold/feedback';
import { Draft } from './fold/draft';
import { foldInvocation } from './fold/invocations';
import { foldInvocationArgs } from './fold/invocationArgs';
import { recordMalformed } from './fold/malformed';
import { foldCitation } from './fold/citations';
import { appendDelta, foldMessage } from './fold/messages';
import { foldOffer } from './fold/offers';
import { foldReasoning } from './fold/reasoning';
import type { ThreadState } from './fold/state';
import { foldSubThread } from './fold/subThreads';
import { foldThreadState } from './fold/threadState';
import { foldTurn } from './fold/turns';
import { opensRow, rowKeyOf } from './fold/rowKeys';

// The fold lives in `./fold/`: the rows (`rows.ts`) and the state (`state.ts`), the row storage
// (`storage.ts`) and the batch's writable view with its one upsert (`draft.ts`), one reducer per
// event family, and which events make which rows (`rowKeys.ts`). This module is its front door.
export type {
  ApprovalRow,
  AssistantRow,
  DecisionRow,
  ElicitationRow,
  Feedback,
  ErrorRow,
  InvocationRow,
  InvocationSeqs,
  ProgressInfo,
  ProposalRow,
  QuestionRow,
  Reasoning,
  ReplySource,
  RouteInfo,
  Row,
  RowOf,
  SkillOfferRow,
  StandingRow,
  SubThreadOriginRow,
  SubThreadRow,
  SubThreadSummaryRow,
  UserRow,
  Violation,
  ViolationRow,
  WaitingFields,
} from './fold/rows';
export type { CastEntry, FoldSeqs, ThreadState } from './fold/state';
export { hasApplied, initialThreadState } from './fold/state';
export { OUTPUT_LIMIT } from './fold/invocations';
export { malformedKey } from './fold/malformed';
export { firstReplyOf, messageVersions, nodeBefore, replyVersions, ROOT, shownNodes, type VersionGroup, type VersionPosition, type Versions } from './fold/versions';
export { addsRow, isDecision, isWaiting, opensRow, rowKeyOf, rowKindOf, type EventLike } from './fold/rowKeys';

/** How the fold checks each event it is given (`eventChecks.ts` `checkEvent`, whose result is a ThreadEvent). */
export type EventCheck = (raw: unknown) => { ok: true; event: ThreadEvent } | { ok: false; error: string };

/**
 * The pure reducer of the thread. Replays (a seq already applied) return the
 * same state; events may arrive in any order and reach the same state (rows
 * stay in arrival order; the deltas of one message, and the output chunks of
 * one invocation, are one stream each and are concatenated as they arrive);
 * a malformed event is recorded once as an error row and never throws.
 * `check` checks each event: by default the event schemas once loaded
 * (`eventChecks.ts`; the runtime entry's `fold` binds them, `foldEvents.ts`).
 */
export function fold(state: ThreadState, input: unknown, check: EventCheck = checkEvent as EventCheck): ThreadState {
  return foldAll(state, [input], check);
}

/**
 * Folds many events; the result equals folding them one by one, but the
 * transcript is copied once per batch rather than once per event.
 */
export function foldAll(state: ThreadState, events: Iterable<unknown>, check: EventCheck = checkEvent as EventCheck): ThreadState {
  const draft = new Draft(state);
  for (const input of events) {
    // The hot path (a reply streams thousands of deltas): checked without a copy or a result object.
    if (isWellFormedDelta(input)) {
      if (draft.markApplied(input.seq)) appendDelta(draft, input);
      continue;
    }
    const parsed = check(input);
    if (!parsed.ok) recordMalformed(draft, input, parsed.error);
    else if (draft.markApplied(parsed.event.seq)) {
      const event = parsed.event;
      draft.branch = event.branch;
      draft.opener = opensRow(event);
      if (draft.opener && event.branch !== undefined) {
        const key = rowKeyOf(event);
        if (key) draft.settle(key, event.branch);
      }
      apply(draft, event);
      draft.branch = undefined;
      draft.opener = false;
    }
  }
  return draft.finish();
}

/** Hands an event to the reducer of its family. */
function apply(d: Draft, event: ThreadEvent): void {
  switch (event.type) {
    case 'message.created':
      noteEdit(d, event);
      return foldMessage(d, event);
    case 'message.delta':
    case 'message.done':
      return foldMessage(d, event);
    case 'message.feedback':
      return foldFeedback(d, event);
    case 'reasoning.delta':
    case 'reasoning.done':
      return foldReasoning(d, event);
    case 'message.cited':
      return foldCitation(d, event);
    case 'turn.started':
    case 'turn.done':
    case 'turn.error':
      return foldTurn(d, event);
    case 'invocation.args.delta':
      return foldInvocationArgs(d, event);
    case 'capability.queued':
    case 'capability.started':
    case 'capability.progress':
    case 'capability.output':
    case 'capability.done':
    case 'capability.error':
    case 'capability.quality_violation':
    case 'capability.checked':
    case 'quality.slow':
      return foldInvocation(d, event);
    case 'proposal.created':
    case 'proposal.resolved':
    case 'approval.requested':
    case 'approval.resolved':
    case 'clarify.requested':
    case 'clarify.answered':
      return foldDecision(d, event);
    case 'standing.requested':
    case 'skill.offered':
    case 'skill.saved':
    case 'skill.offer_dismissed':
      return foldOffer(d, event);
    case 'subthread.opened':
    case 'subthread.done':
    case 'subthread.linked':
      return foldSubThread(d, event);
    case 'view.changed':
    case 'composer.changed':
    case 'skill.activated':
      return foldThreadState(d, event);
    case 'reply.regenerated':
    case 'version.selected':
      return foldVersion(d, event);
    case 'elicitation.requested':
    case 'elicitation.answered':
      return foldElicitation(d, event);
    case 'model.message':
      // The model's conversation: the transcript has it already, in its own words.
      return;
    default:
      return event satisfies never;
  }
}
