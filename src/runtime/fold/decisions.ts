import type { EventOf } from '../events';
import type { Draft } from './draft';
import type { ApprovalRow, ProposalRow, QuestionRow, WaitingFields } from './rows';

type DecisionEvent = EventOf<'proposal.created' | 'proposal.resolved' | 'approval.requested' | 'approval.resolved' | 'clarify.requested' | 'clarify.answered'>;

/**
 * The rows that wait for the user's decision (a proposal, an approval, a question) and their
 * resolution. A resolution that arrives first makes the row; the request then fills it in and
 * keeps the resolution.
 */
export function foldDecision(d: Draft, event: DecisionEvent): void {
  switch (event.type) {
    case 'proposal.created': {
      const i = d.find(event.proposal_id, 'proposal');
      const row: ProposalRow = {
        kind: 'proposal',
        id: event.proposal_id,
        capability: event.capability,
        title: event.title,
        args: event.args,
        status: d.row(i, 'proposal')?.status ?? 'pending',
      };
      if (event.reason !== undefined) row.reason = event.reason;
      if (event.turn_id) row.turn_id = event.turn_id;
      copyWaiting(event, row);
      return d.put(i, row);
    }
    case 'proposal.resolved': {
      const i = d.find(event.proposal_id, 'proposal');
      const prior = d.row(i, 'proposal');
      const row: ProposalRow = prior
        ? { ...prior, status: event.decision }
        : { kind: 'proposal', id: event.proposal_id, capability: '', title: 'Proposal', args: undefined, status: event.decision };
      return d.put(i, row);
    }
    case 'approval.requested': {
      const i = d.find(event.approval_id, 'approval');
      const row: ApprovalRow = {
        kind: 'approval',
        id: event.approval_id,
        capability: event.capability,
        title: event.title,
        args: event.args,
        reason: event.reason,
        status: d.row(i, 'approval')?.status ?? 'pending',
      };
      if (event.turn_id) row.turn_id = event.turn_id;
      copyWaiting(event, row);
      return d.put(i, row);
    }
    case 'approval.resolved': {
      const i = d.find(event.approval_id, 'approval');
      const prior = d.row(i, 'approval');
      const row: ApprovalRow = prior
        ? { ...prior, status: event.decision }
        : { kind: 'approval', id: event.approval_id, capability: '', title: 'Approval', args: undefined, reason: '', status: event.decision };
      return d.put(i, row);
    }
    case 'clarify.requested': {
      const i = d.find(event.question_id, 'question');
      const prior = d.row(i, 'question');
      const row: QuestionRow = {
        kind: 'question',
        id: event.question_id,
        question: event.question,
        options: event.options,
        status: prior?.status ?? 'pending',
      };
      if (prior?.answer !== undefined) row.answer = prior.answer;
      if (event.turn_id) row.turn_id = event.turn_id;
      copyWaiting(event, row);
      if (event.purpose) row.purpose = event.purpose;
      return d.put(i, row);
    }
    case 'clarify.answered': {
      const i = d.find(event.question_id, 'question');
      const prior = d.row(i, 'question');
      const row: QuestionRow = prior
        ? { ...prior, status: 'answered', answer: event.answer }
        : { kind: 'question', id: event.question_id, question: '', options: [], status: 'answered', answer: event.answer };
      return d.put(i, row);
    }
    default:
      return event satisfies never;
  }
}

/** What resumes the turn as it was: the model's call it answers, the user's words, the route. */
function copyWaiting(event: EventOf<'proposal.created' | 'approval.requested' | 'clarify.requested'>, row: WaitingFields): void {
  if (event.call_id) row.call_id = event.call_id;
  if (event.user_text !== undefined) row.user_text = event.user_text;
  if (event.route) row.route = event.route;
}
