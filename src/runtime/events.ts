import * as z from 'zod/mini';
import {
  CapabilityDoneSchema,
  CapabilityErrorEventSchema,
  CapabilityOutputSchema,
  CapabilityProgressSchema,
  CapabilityQueuedSchema,
  CapabilityStartedSchema,
  QualityCheckedSchema,
  QualitySlowSchema,
  QualityViolationSchema,
} from './events/capabilityRuns';
import {
  ApprovalRequestedSchema,
  ApprovalResolvedSchema,
  ClarifyAnsweredSchema,
  ClarifyRequestedSchema,
  ProposalCreatedSchema,
  ProposalResolvedSchema,
  StandingRequestedSchema,
} from './events/decisions';
import type { DriverInfoSchema } from './events/fields';
import { formatIssues } from './events/issues';
import { validDelta, validMessage } from './events/messageFastPath';
import { MessageCitedSchema } from './events/citations';
import { ElicitationAnsweredSchema, ElicitationRequestedSchema } from './events/elicitations';
import { MessageFeedbackSchema } from './events/feedback';
import { MessageCreatedSchema, MessageDeltaSchema, MessageDoneSchema, type UsageSchema } from './events/messages';
import { ModelMessageEventSchema } from './events/modelHistory';
import { ReasoningDeltaSchema, ReasoningDoneSchema } from './events/reasoning';
import { InvocationArgsDeltaSchema } from './events/invocationArgs';
import { SkillActivatedSchema, SkillOfferDismissedSchema, SkillOfferedSchema, SkillSavedSchema } from './events/skills';
import { SubThreadDoneSchema, SubThreadLinkedSchema, SubThreadOpenedSchema } from './events/subThreads';
import { ComposerChangedSchema, ViewChangedSchema } from './events/threadState';
import { TurnDoneSchema, TurnErrorSchema, TurnStartedSchema } from './events/turns';
import { ReplyRegeneratedSchema, VersionSelectedSchema } from './events/versions';
import { ensureEnglishMessages } from './zodLocale';
import { registerEventSchemas } from './eventChecks';

ensureEnglishMessages();

/**
 * The thread's event stream, declared once. Emitting, folding and validating
 * remote events all use these schemas; types are inferred from them. Each
 * family of events is declared in a module of its own under `events/`
 * (messages, capability runs, turns, decisions, skills, sub-threads, thread
 * state, model history); this module is the one everyone imports: the union,
 * its types and the parser.
 */

export { DriverInfoSchema } from './events/fields';
export { MessageCreatedSchema, MessageDeltaSchema, MessageDoneSchema, UsageSchema } from './events/messages';
export { FEEDBACK_COMMENT_MAX, FEEDBACK_RATINGS, MessageFeedbackSchema, type FeedbackRating } from './events/feedback';
export { FieldIssueSchema, formatIssues, toFieldIssues, type FieldIssue } from './events/issues';
export { isWellFormedDelta } from './events/messageFastPath';
export {
  CapabilityDoneSchema,
  CapabilityErrorEventSchema,
  CapabilityErrorSchema,
  CapabilityOutputSchema,
  CapabilityProgressSchema,
  CapabilityQueuedSchema,
  CapabilityStartedSchema,
  QualityCheckedSchema,
  QualitySlowSchema,
  QualityViolationSchema,
  type CapabilityError,
} from './events/capabilityRuns';
export { TurnDoneSchema, TurnErrorSchema, TurnStartedSchema } from './events/turns';
export {
  ApprovalRequestedSchema,
  ApprovalResolvedSchema,
  ClarifyAnsweredSchema,
  ClarifyRequestedSchema,
  ProposalCreatedSchema,
  ProposalResolvedSchema,
  RouteSchema,
  StandingRequestedSchema,
} from './events/decisions';
export { SkillActivatedSchema, SkillOfferDismissedSchema, SkillOfferedSchema, SkillSavedSchema } from './events/skills';
export {
  SubThreadDoneSchema,
  SubThreadLinkedSchema,
  SubThreadOpenedSchema,
  SubThreadOutcomeSchema,
  type SubThreadOutcome,
} from './events/subThreads';
export { ActiveViewSchema, ComposerChangedSchema, ComposerSchema, ViewChangedSchema, type ActiveView, type Composer } from './events/threadState';
export { ModelMessageEventSchema, ModelMessageSchema, ThinkingBlockSchema } from './events/modelHistory';
export { ReasoningDeltaSchema, ReasoningDoneSchema } from './events/reasoning';
export { InvocationArgsDeltaSchema } from './events/invocationArgs';
export {
  CITATION_LIMITS,
  CitationLocationSchema,
  CitationSchema,
  CitedSourceSchema,
  MessageCitedSchema,
  type Citation,
  type CitationLocation,
  type CitedSource,
} from './events/citations';
export { ReplyRegeneratedSchema, VersionSelectedSchema } from './events/versions';
export {
  ELICITATION_ACTIONS,
  ELICITATION_CLOSED,
  ElicitationAnsweredSchema,
  ElicitationRequestedSchema,
  ElicitationValueSchema,
  type ElicitationAction,
  type ElicitationClosed,
  type ElicitationValue,
} from './events/elicitations';

export const ThreadEventSchema = z.discriminatedUnion('type', [
  ModelMessageEventSchema,
  MessageCreatedSchema,
  MessageDeltaSchema,
  MessageDoneSchema,
  MessageFeedbackSchema,
  ReasoningDeltaSchema,
  ReasoningDoneSchema,
  MessageCitedSchema,
  TurnErrorSchema,
  InvocationArgsDeltaSchema,
  CapabilityStartedSchema,
  CapabilityProgressSchema,
  CapabilityOutputSchema,
  CapabilityDoneSchema,
  CapabilityErrorEventSchema,
  TurnStartedSchema,
  TurnDoneSchema,
  CapabilityQueuedSchema,
  QualityViolationSchema,
  QualityCheckedSchema,
  QualitySlowSchema,
  ProposalCreatedSchema,
  ProposalResolvedSchema,
  ApprovalRequestedSchema,
  ApprovalResolvedSchema,
  ClarifyRequestedSchema,
  ClarifyAnsweredSchema,
  StandingRequestedSchema,
  SkillActivatedSchema,
  ViewChangedSchema,
  ComposerChangedSchema,
  SkillOfferedSchema,
  SkillSavedSchema,
  SkillOfferDismissedSchema,
  SubThreadOpenedSchema,
  SubThreadDoneSchema,
  SubThreadLinkedSchema,
  ReplyRegeneratedSchema,
  VersionSelectedSchema,
  ElicitationRequestedSchema,
  ElicitationAnsweredSchema,
]);

export type ThreadEvent = z.infer<typeof ThreadEventSchema>;
export type ThreadEventType = ThreadEvent['type'];
export type DriverInfo = z.infer<typeof DriverInfoSchema>;
export type Usage = z.infer<typeof UsageSchema>;
/** The event of one type, e.g. `EventOf<'capability.done'>`. */
export type EventOf<T extends ThreadEvent['type']> = Extract<ThreadEvent, { type: T }>;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** An event before the thread stamps it with `seq` and `ts`. */
export type ThreadEventInput = DistributiveOmit<ThreadEvent, 'seq' | 'ts'>;
/** The one way to put an event on a thread; returns the stamped event. */
export type Emit = (event: ThreadEventInput) => ThreadEvent;

/**
 * Validates an event from outside (a remote stream, a host); `error` says which field is wrong.
 * The message events a reply streams are checked by hand first (`events/messageFastPath.ts`);
 * anything else, or anything off, goes through the schema, which says what is wrong.
 */
export function parseThreadEvent(
  raw: unknown,
): { ok: true; event: ThreadEvent } | { ok: false; error: string } {
  const fast = validDelta(raw) ?? validMessage(raw);
  if (fast) return { ok: true, event: fast };
  const parsed = ThreadEventSchema.safeParse(raw);
  if (parsed.success) return { ok: true, event: parsed.data };
  return { ok: false, error: formatIssues(parsed.error.issues) };
}

// The fold checks events through `eventChecks.ts`, which holds no schemas: from here on it has these.
registerEventSchemas(parseThreadEvent);
