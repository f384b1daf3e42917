import * as z from 'zod/mini';
import { ensureEnglishMessages } from '../zodLocale';
import { id, stamp } from './fields';

ensureEnglishMessages();

/**
 * A running MCP tool's question for the user (MCP elicitation, `elicitation/create`): asked as a
 * row of the thread whose card ran the tool, answered there (or closed when the call ends).
 */

/** What the user did with the question: sent the form (or finished the page), said no, or dismissed it. */
export const ELICITATION_ACTIONS = ['accept', 'decline', 'cancel'] as const;
export type ElicitationAction = (typeof ELICITATION_ACTIONS)[number];

/** Why a question was closed without the user's answer: its call ended (or was stopped), its wait ran out, or the process that asked it went away. */
export const ELICITATION_CLOSED = ['call_ended', 'timed_out', 'interrupted'] as const;
export type ElicitationClosed = (typeof ELICITATION_CLOSED)[number];

/** One field's value in an accepted form: MCP's restricted schema has strings, numbers, booleans and lists of strings (multi-select). */
export const ElicitationValueSchema = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

export const ElicitationRequestedSchema = z.object({
  type: z.literal('elicitation.requested'),
  ...stamp,
  elicitation_id: id,
  /** The MCP server that asks, by the name the host or the user gave it. */
  server: z.string(),
  /** The tool that was running when it asked. */
  tool: z.optional(z.string()),
  /** The invocation (card) the question belongs to. */
  invocation_id: z.optional(id),
  turn_id: z.optional(id),
  /** `form`: fields to fill in; `url`: a page to open (sign-in, payment, consent). */
  mode: z.enum(['form', 'url']),
  /** What the server asks, in its words. */
  message: z.string(),
  /** Form mode: a flat object schema of strings, numbers, booleans and enums. */
  requested_schema: z.optional(z.record(z.string(), z.unknown())),
  /** URL mode: the `https:` page to open. */
  url: z.optional(z.string()),
  /** URL mode: the page's host name, shown so the user sees where the link goes. */
  host: z.optional(z.string()),
});

export const ElicitationAnsweredSchema = z.object({
  type: z.literal('elicitation.answered'),
  ...stamp,
  elicitation_id: id,
  action: z.enum(ELICITATION_ACTIONS),
  /** An accepted form's values, as sent to the server. */
  content: z.optional(z.record(z.string(), ElicitationValueSchema)),
  /** Set when nobody answered: the question was closed (and the server told `cancel`). */
  closed: z.optional(z.enum(ELICITATION_CLOSED)),
});

export type ElicitationValue = z.infer<typeof ElicitationValueSchema>;
