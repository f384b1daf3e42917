import * as z from 'zod/mini';
import { ActorSchema } from '../capabilitySchemas';
import { CapabilityResultSchema } from '../envelope';
import { ensureEnglishMessages } from '../zodLocale';
import { call, id, stamp } from './fields';
import { FieldIssueSchema } from './issues';

ensureEnglishMessages();

/** A capability's run: queued, started, its progress and output, done or failed, and its quality checks. */

export const CapabilityErrorSchema = z.object({
  /** `invalid_arguments`, `unknown_capability`, `handler_error`, `invalid_result`, `tool_error`, `cancelled`, … */
  code: z.string(),
  message: z.string(),
  issues: z.optional(z.array(FieldIssueSchema)),
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

export type CapabilityError = z.infer<typeof CapabilityErrorSchema>;
