import * as z from 'zod/mini';
import { ActorSchema } from './capabilitySchemas';
import { CapabilityResultSchema } from './envelope';
import { ensureEnglishMessages } from './zodLocale';

ensureEnglishMessages();

/**
 * The thread's event stream, declared once. Emitting, folding and validating
 * remote events all use these schemas; types are inferred from them.
 */

const id = z.string().check(z.minLength(1));

/** Fields every event carries: a per-thread monotonic `seq` and a wall-clock `ts` (ms). */
const stamp = {
  seq: z.int().check(z.positive()),
  // zod 4 numbers reject Infinity and NaN already.
  ts: z.number(),
};

/** The call an invocation, a proposal and an approval request each describe. */
const call = {
  capability: id,
  title: z.string(),
  args: z.unknown(),
  turn_id: z.optional(id),
};

/** Which model answers: shown on the surface so a demo never hides it. */
export const DriverInfoSchema = z.object({ id: z.string(), label: z.string() });

/** Token accounting of one assistant message (Anthropic's usage fields). */
export const UsageSchema = z.object({
  input_tokens: z.int().check(z.nonnegative()),
  output_tokens: z.int().check(z.nonnegative()),
  cache_creation_input_tokens: z.optional(z.nullable(z.int().check(z.nonnegative()))),
  cache_read_input_tokens: z.optional(z.nullable(z.int().check(z.nonnegative()))),
});

/** A field-level problem with arguments: `path` like `amount` or `rows.0.name`. */
export const FieldIssueSchema = z.object({ path: z.string(), message: z.string() });

export const CapabilityErrorSchema = z.object({
  /** `invalid_arguments`, `unknown_capability`, `handler_error`, `invalid_result`, `tool_error`, `cancelled`, … */
  code: z.string(),
  message: z.string(),
  issues: z.optional(z.array(FieldIssueSchema)),
});

export const MessageCreatedSchema = z.object({
  type: z.literal('message.created'),
  ...stamp,
  message_id: id,
  role: z.enum(['user', 'assistant']),
  text: z.string(),
  turn_id: z.optional(id),
  driver: z.optional(DriverInfoSchema),
});

export const MessageDeltaSchema = z.object({
  type: z.literal('message.delta'),
  ...stamp,
  message_id: id,
  delta: z.string(),
});

export const MessageDoneSchema = z.object({
  type: z.literal('message.done'),
  ...stamp,
  message_id: id,
  usage: z.optional(UsageSchema),
  /** True when the reply was cut off (the server restarted mid-stream); its text is what arrived. */
  interrupted: z.optional(z.boolean()),
});

export const TurnErrorSchema = z.object({
  type: z.literal('turn.error'),
  ...stamp,
  turn_id: z.optional(id),
  code: z.string(),
  message: z.string(),
  recoverable: z.boolean(),
});

export const CapabilityStartedSchema = z.object({
  type: z.literal('capability.started'),
  ...stamp,
  invocation_id: id,
  ...call,
  /** The model's tool call that asked for it, when a model did. */
  call_id: z.optional(id),
  actor: z.optional(ActorSchema),
});

export const CapabilityProgressSchema = z.object({
  type: z.literal('capability.progress'),
  ...stamp,
  invocation_id: id,
  progress: z.number(),
  total: z.optional(z.number().check(z.positive())),
  message: z.optional(z.string()),
});

export const CapabilityOutputSchema = z.object({
  type: z.literal('capability.output'),
  ...stamp,
  invocation_id: id,
  stream: z.enum(['stdout', 'stderr', 'log']),
  text: z.string(),
});

export const CapabilityDoneSchema = z.object({
  type: z.literal('capability.done'),
  ...stamp,
  invocation_id: id,
  result: CapabilityResultSchema,
});

export const CapabilityErrorEventSchema = z.object({
  type: z.literal('capability.error'),
  ...stamp,
  invocation_id: id,
  capability: id,
  title: z.optional(z.string()),
  error: CapabilityErrorSchema,
  /** True when trying again (perhaps with other arguments) may succeed. */
  recoverable: z.boolean(),
  /** The tool's own error result, when it returned one (`isError: true`). */
  result: z.optional(CapabilityResultSchema),
});

export const TurnStartedSchema = z.object({
  type: z.literal('turn.started'),
  ...stamp,
  turn_id: id,
  driver: z.optional(DriverInfoSchema),
});

export const TurnDoneSchema = z.object({
  type: z.literal('turn.done'),
  ...stamp,
  turn_id: id,
  /** How the turn ended: its one intent, or why it has none. */
  outcome: z.enum(['answered', 'proposed', 'invoked', 'waiting', 'stopped', 'failed', 'interrupted']),
});

export const CapabilityQueuedSchema = z.object({
  type: z.literal('capability.queued'),
  ...stamp,
  invocation_id: id,
  ...call,
  actor: z.optional(ActorSchema),
  job_id: z.optional(id),
});

/** A postcondition that did not hold after a capability finished; the invocation stays done. */
export const QualityViolationSchema = z.object({
  type: z.literal('capability.quality_violation'),
  ...stamp,
  invocation_id: id,
  /** The postcondition's kind, e.g. `row_count_change`. */
  postcondition: z.string(),
  expected: z.string(),
  actual: z.string(),
  message: z.string(),
});

/** The postconditions that held after a capability finished, each in plain words ("2 more enriched records"). */
export const QualityCheckedSchema = z.object({
  type: z.literal('capability.checked'),
  ...stamp,
  invocation_id: id,
  checks: z.array(z.object({ postcondition: z.string(), text: z.string() })),
});

/** A soft `duration` postcondition that was exceeded: a hint, never a violation. */
export const QualitySlowSchema = z.object({
  type: z.literal('quality.slow'),
  ...stamp,
  invocation_id: id,
  max_ms: z.number().check(z.nonnegative()),
  actual_ms: z.number().check(z.nonnegative()),
});

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

/** A skill's instructions were loaded into the active-skills prompt slab. */
export const SkillActivatedSchema = z.object({
  type: z.literal('skill.activated'),
  ...stamp,
  skill: id,
  title: z.string(),
  invocation_id: z.optional(id),
});

/**
 * The assistant noticed the same multi-step request twice and offers to save
 * it as a slash skill. `name` is the proposed slash word (without the slash).
 */
export const SkillOfferedSchema = z.object({
  type: z.literal('skill.offered'),
  ...stamp,
  offer_id: id,
  turn_id: z.optional(id),
  /** Capability names, in the order they ran. */
  sequence: z.array(z.string()).check(z.minLength(2)),
  /** Their titles, for the offer's wording. */
  titles: z.array(z.string()),
  name: z.string(),
  description: z.string(),
  /** The instructions the skill would hold, so the offer can show them. */
  instructions: z.optional(z.string()),
});

/** A skill node was saved (from an offer, or directly through the workspace); it is discoverable at once. */
export const SkillSavedSchema = z.object({
  type: z.literal('skill.saved'),
  ...stamp,
  offer_id: z.optional(id),
  /** The node's path, e.g. `alice/Skill/import-and-enrich`. */
  path: id,
  /** The slash name, e.g. `/import-and-enrich`. */
  name: z.string(),
});

/** The user dismissed a skill offer; the same sequence is not offered again. */
export const SkillOfferDismissedSchema = z.object({
  type: z.literal('skill.offer_dismissed'),
  ...stamp,
  offer_id: id,
});

/**
 * A skill with `launchesSubThread` was started in a child thread (issue 15): the parent's row
 * "Opened a sub-thread: …" links to it. `subthread_id` is the child's thread id, of the same principal.
 */
export const SubThreadOpenedSchema = z.object({
  type: z.literal('subthread.opened'),
  ...stamp,
  subthread_id: id,
  /** The skill it runs: a slash node path (`Skill/research`) or a SKILL.md capability name. */
  skill: id,
  /** The skill's title as the row says it, e.g. `/research`. */
  title: z.string(),
  /** What the child was asked to do. */
  task: z.string(),
  turn_id: z.optional(id),
});

/** How a sub-thread's turn ended, as the parent's row and summary say it. */
export const SubThreadOutcomeSchema = z.enum(['done', 'failed', 'cancelled', 'interrupted']);

/** The sub-thread's turn ended: its outcome in plain words, back in the parent. */
export const SubThreadDoneSchema = z.object({
  type: z.literal('subthread.done'),
  ...stamp,
  subthread_id: id,
  outcome: SubThreadOutcomeSchema,
  /** The child's final assistant text, trimmed, or its error. */
  summary: z.string(),
  /** The skill's title again, so a done that arrives before its opened still names the row. */
  title: z.optional(z.string()),
});

/** The first event of a sub-thread: which thread opened it and for what (the link survives restarts and instances). */
export const SubThreadLinkedSchema = z.object({
  type: z.literal('subthread.linked'),
  ...stamp,
  parent_id: id,
  skill: id,
  title: z.string(),
  task: z.string(),
});

/** What the user is looking at in the host app; keys the anticipation map. */
export const ActiveViewSchema = z.object({ kind: z.string().check(z.minLength(1)), id: z.optional(z.string()), title: z.optional(z.string()) });

export const ViewChangedSchema = z.object({
  type: z.literal('view.changed'),
  ...stamp,
  view: ActiveViewSchema,
});

/** The thread's selections (the composer is their single source of truth). */
export const ComposerSchema = z.object({
  harness: z.optional(z.string()),
  agentName: z.optional(z.string()),
  modelName: z.optional(z.string()),
});

export const ComposerChangedSchema = z.object({
  type: z.literal('composer.changed'),
  ...stamp,
  composer: ComposerSchema,
});

const ToolCallSchema = z.object({ id, capability: z.string(), args: z.unknown() });

const ViolationNoteSchema = z.object({
  invocation_id: z.string(),
  capability: z.string(),
  title: z.string(),
  postcondition: z.string(),
  expected: z.string(),
  actual: z.string(),
  message: z.string(),
});

/** One message of the conversation as the model sees it (the engine's `ModelMessage`). */
export const ModelMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('user'), text: z.string() }),
  z.object({ role: z.literal('assistant'), text: z.string(), calls: z.optional(z.array(ToolCallSchema)) }),
  z.object({
    role: z.literal('tool'),
    call_id: z.optional(id),
    capability: z.string(),
    title: z.string(),
    args: z.unknown(),
    result: CapabilityResultSchema,
    violations: z.optional(z.array(ViolationNoteSchema)),
  }),
]);

/**
 * The model's conversation, logged as it grows: the model history of a thread
 * is these messages in seq order, so a restarted server rebuilds exactly the
 * request it would have built live. The transcript ignores them.
 */
export const ModelMessageEventSchema = z.object({
  type: z.literal('model.message'),
  ...stamp,
  turn_id: z.optional(id),
  message: ModelMessageSchema,
});

export const ThreadEventSchema = z.discriminatedUnion('type', [
  ModelMessageEventSchema,
  MessageCreatedSchema,
  MessageDeltaSchema,
  MessageDoneSchema,
  TurnErrorSchema,
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
]);

export type ThreadEvent = z.infer<typeof ThreadEventSchema>;
export type ThreadEventType = ThreadEvent['type'];
export type DriverInfo = z.infer<typeof DriverInfoSchema>;
export type Usage = z.infer<typeof UsageSchema>;
export type FieldIssue = z.infer<typeof FieldIssueSchema>;
export type CapabilityError = z.infer<typeof CapabilityErrorSchema>;
export type ActiveView = z.infer<typeof ActiveViewSchema>;
export type Composer = z.infer<typeof ComposerSchema>;
export type SubThreadOutcome = z.infer<typeof SubThreadOutcomeSchema>;
/** The event of one type, e.g. `EventOf<'capability.done'>`. */
export type EventOf<T extends ThreadEvent['type']> = Extract<ThreadEvent, { type: T }>;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** An event before the thread stamps it with `seq` and `ts`. */
export type ThreadEventInput = DistributiveOmit<ThreadEvent, 'seq' | 'ts'>;
/** The one way to put an event on a thread; returns the stamped event. */
export type Emit = (event: ThreadEventInput) => ThreadEvent;

/** Validates an event from outside (a remote stream, a host); `error` says which field is wrong. */
export function parseThreadEvent(
  raw: unknown,
): { ok: true; event: ThreadEvent } | { ok: false; error: string } {
  const fast = validDelta(raw) ?? validMessage(raw);
  if (fast) return { ok: true, event: fast };
  const parsed = ThreadEventSchema.safeParse(raw);
  if (parsed.success) return { ok: true, event: parsed.data };
  return { ok: false, error: formatIssues(parsed.error.issues) };
}

/**
 * The hot path: a well-formed `message.delta` (a reply streams thousands of them) checked by hand,
 * with the schema's exact result (known fields only). Anything else, or anything off, goes
 * through the schema, which says what is wrong.
 */
function validDelta(raw: unknown): EventOf<'message.delta'> | null {
  if (!isWellFormedDelta(raw)) return null;
  return { type: 'message.delta', seq: raw.seq, ts: raw.ts, message_id: raw.message_id, delta: raw.delta };
}

/**
 * Whether `raw` is a well-formed `message.delta`: its known fields are what the schema accepts (it
 * may carry others, which the schema would drop). For a reader that only reads those fields and
 * keeps nothing of the object (the fold appending a streamed token), so no copy is made.
 */
export function isWellFormedDelta(raw: unknown): raw is EventOf<'message.delta'> {
  if (typeof raw !== 'object' || raw === null) return false;
  const e = raw as Record<string, unknown>;
  if (e.type !== 'message.delta') return false;
  const { seq, ts, message_id, delta } = e;
  if (!Number.isSafeInteger(seq) || (seq as number) <= 0 || typeof ts !== 'number' || !Number.isFinite(ts)) return false;
  return typeof message_id === 'string' && message_id.length > 0 && typeof delta === 'string';
}

const goodStamp = (e: Record<string, unknown>) =>
  Number.isSafeInteger(e.seq) && (e.seq as number) > 0 && typeof e.ts === 'number' && Number.isFinite(e.ts);
const goodId = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/**
 * The other hot path: `message.created` and `message.done` (a replayed history is mostly these),
 * checked by hand in their common forms, with the schema's exact result (known fields only). An
 * optional field that is there is checked as the schema does (a driver `{ id, label }`, a boolean
 * `interrupted`); `usage`, or anything off, goes through the schema.
 */
function validMessage(raw: unknown): EventOf<'message.created'> | EventOf<'message.done'> | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const e = raw as Record<string, unknown>;
  if (e.type === 'message.created') {
    const { role, text, turn_id, driver } = e;
    if (!goodStamp(e) || !goodId(e.message_id) || (role !== 'user' && role !== 'assistant') || typeof text !== 'string') return null;
    const event: EventOf<'message.created'> = { type: 'message.created', seq: e.seq as number, ts: e.ts as number, message_id: e.message_id, role, text };
    if ('turn_id' in e) {
      if (!goodId(turn_id)) return null;
      event.turn_id = turn_id;
    }
    if ('driver' in e) {
      if (typeof driver !== 'object' || driver === null) return null;
      const { id, label } = driver as Record<string, unknown>;
      if (typeof id !== 'string' || typeof label !== 'string') return null;
      event.driver = { id, label };
    }
    return event;
  }
  if (e.type === 'message.done') {
    if (!goodStamp(e) || !goodId(e.message_id) || 'usage' in e) return null;
    const event: EventOf<'message.done'> = { type: 'message.done', seq: e.seq as number, ts: e.ts as number, message_id: e.message_id };
    if ('interrupted' in e) {
      if (typeof e.interrupted !== 'boolean') return null;
      event.interrupted = e.interrupted;
    }
    return event;
  }
  return null;
}

/** Zod issues as field-level issues (`path: message`). */
export function toFieldIssues(issues: readonly z.core.$ZodIssue[]): FieldIssue[] {
  return issues.map((issue) => ({
    path: issue.path.length ? issue.path.map(String).join('.') : '(root)',
    message: issue.message,
  }));
}

export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  return toFieldIssues(issues)
    .map((i) => `${i.path}: ${i.message}`)
    .join('; ');
}
