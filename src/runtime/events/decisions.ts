import * as z from 'zod/mini';
import { ensureEnglishMessages } from '../zodLocale';
import { call, id, stamp } from './fields';

ensureEnglishMessages();

/**
 * The rows that wait for the user, and how each was decided: proposals, approvals, questions,
 * and the standing requests handed to the host.
 */

/** What the intent router made of the user's message (the engine's `Route`). */
export const RouteSchema = z.object({
  kind: z.enum(['one_shot', 'standing', 'ambiguous']),
  cadence: z.optional(z.string()),
  cues: z.array(z.string()),
});

/**
 * The request a waiting row (proposal, approval, question) stopped: the model's
 * tool call it answers, and what the user wrote, so that a decision resumes the
 * turn exactly as it was, even after a restart.
 */
const waitingFields = {
  /** The model's tool call this row answers; absent for a chip that needs approval. */
  call_id: z.optional(id),
  /** What the user wrote for the request (names in it count as named under strict alignment). */
  user_text: z.optional(z.string()),
  route: z.optional(RouteSchema),
};

export const ProposalCreatedSchema = z.object({
  type: z.literal('proposal.created'),
  ...stamp,
  proposal_id: id,
  ...call,
  ...waitingFields,
  /** Why the assistant proposes it, in plain words. */
  reason: z.optional(z.string()),
});

export const ProposalResolvedSchema = z.object({
  type: z.literal('proposal.resolved'),
  ...stamp,
  proposal_id: id,
  decision: z.enum(['accepted', 'dismissed']),
});

export const ApprovalRequestedSchema = z.object({
  type: z.literal('approval.requested'),
  ...stamp,
  approval_id: id,
  ...call,
  ...waitingFields,
  reason: z.string(),
});

export const ApprovalResolvedSchema = z.object({
  type: z.literal('approval.resolved'),
  ...stamp,
  approval_id: id,
  decision: z.enum(['approved', 'denied']),
});

export const ClarifyRequestedSchema = z.object({
  type: z.literal('clarify.requested'),
  ...stamp,
  question_id: id,
  turn_id: z.optional(id),
  question: z.string(),
  /** Quick answers shown as buttons; the user may also type one. */
  options: z.array(z.object({ label: z.string(), value: z.string() })),
  ...waitingFields,
  /** `route` when it is the intent router's "once or keep watching?" question. */
  purpose: z.optional(z.literal('route')),
});

export const ClarifyAnsweredSchema = z.object({
  type: z.literal('clarify.answered'),
  ...stamp,
  question_id: id,
  answer: z.string(),
});

/** A standing request ("watch", "every week") handed to the host, which owns trackers. */
export const StandingRequestedSchema = z.object({
  type: z.literal('standing.requested'),
  ...stamp,
  request_id: id,
  turn_id: z.optional(id),
  text: z.string(),
  cadence: z.optional(z.string()),
});
