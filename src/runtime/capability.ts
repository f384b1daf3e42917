import { z } from 'zod';
import type { CapabilityResult } from './envelope';

/** MCP `ToolAnnotations`: hints about a capability's effects. Absent fields take MCP's defaults. */
export const ToolAnnotationsSchema = z.object({
  title: z.string().optional(),
  /** @default false */
  readOnlyHint: z.boolean().optional(),
  /** @default true (meaningful only when readOnlyHint is false) */
  destructiveHint: z.boolean().optional(),
  /** @default false */
  idempotentHint: z.boolean().optional(),
  /** @default true */
  openWorldHint: z.boolean().optional(),
});
export type ToolAnnotations = z.infer<typeof ToolAnnotationsSchema>;

/** The character shown in the cast row while a capability runs. */
export const ActorSchema = z.object({
  /** Stable id, e.g. `enricher`. */
  id: z.string().min(1),
  /** Name read out to users, e.g. `Enricher`. */
  name: z.string().min(1),
  /** A short glyph (emoji or initials) drawn in the cast row. */
  glyph: z.string().optional(),
});
export type Actor = z.infer<typeof ActorSchema>;

/** What a handler may do while it runs. */
export interface CapabilityContext {
  /** Id of this invocation, as carried by its events. */
  invocationId: string;
  /** Thread the invocation belongs to. */
  threadId: string;
  /** Aborted when the user or the host cancels the invocation. */
  signal: AbortSignal;
  /** Report progress; `progress` should grow with every call (MCP's rule). */
  progress(progress: number, total?: number, message?: string): void;
  /** Stream a piece of output (log lines, partial text) to the card. */
  output(text: string, stream?: OutputStream): void;
}

export type OutputStream = 'stdout' | 'stderr' | 'log';

/** An in-process handler. */
export type CapabilityHandler<I> = (
  args: I,
  ctx: CapabilityContext,
) => CapabilityResult | Promise<CapabilityResult>;

/** Where a capability's work happens. More sources (skill, mcp, script) share this union. */
export type CapabilitySource = { type: 'ts'; handler: CapabilityHandler<any> };

/** A registered verb. */
export interface CapabilityDescriptor<I = any> {
  /** Dotted machine name, e.g. `records.import_csv` (MCP tool-name characters, 1–128). */
  name: string;
  /** Human title shown on chips and cards. */
  title: string;
  /** What it does and when to use it; the model reads this. */
  description: string;
  /** `read` never changes the workspace; `mutate` may. */
  kind: 'read' | 'mutate';
  /** Arguments schema; the handler receives its output. */
  input: z.ZodType<I, any>;
  /** Optional schema `structuredContent` must satisfy. */
  output?: z.ZodType<Record<string, unknown>>;
  /** MCP-style hints. */
  annotations: ToolAnnotations;
  /** The character shown in the cast row while it runs. */
  actor?: Actor;
  /** A mutate that must be approved by the user before it runs. @default false */
  requires_user_confirmation?: boolean;
  source: CapabilitySource;
}

/** What `defineCapability` takes for an in-process capability. */
export interface CapabilityDefinition<S extends z.ZodType<Record<string, unknown>>> {
  name: string;
  title: string;
  description: string;
  /** @default 'read' */
  kind?: 'read' | 'mutate';
  input: S;
  output?: z.ZodType<Record<string, unknown>>;
  annotations?: ToolAnnotations;
  actor?: Actor;
  requires_user_confirmation?: boolean;
  handler: CapabilityHandler<z.infer<S>>;
}

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** Thrown when a descriptor cannot be registered; the message names the capability and the fix. */
export class CapabilityDefinitionError extends Error {
  override name = 'CapabilityDefinitionError';
}

/**
 * Declares an in-process capability.
 * @example
 * const add = defineCapability({
 *   name: 'math.add', title: 'Add', description: 'Adds two numbers.',
 *   input: z.object({ a: z.number(), b: z.number() }),
 *   handler: ({ a, b }) => textResult(String(a + b), { sum: a + b }),
 * });
 */
export function defineCapability<S extends z.ZodType<Record<string, unknown>>>(
  definition: CapabilityDefinition<S>,
): CapabilityDescriptor<z.infer<S>> {
  const { handler, ...rest } = definition;
  const kind = rest.kind ?? 'read';
  const descriptor: CapabilityDescriptor<z.infer<S>> = {
    ...rest,
    input: rest.input as unknown as z.ZodType<z.infer<S>, any>,
    kind,
    annotations: { readOnlyHint: kind === 'read', ...rest.annotations },
    source: { type: 'ts', handler },
  };
  checkDescriptor(descriptor);
  return descriptor;
}

/** Throws a `CapabilityDefinitionError` for a descriptor no door could serve. */
export function checkDescriptor(descriptor: CapabilityDescriptor): void {
  const { name } = descriptor;
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw new CapabilityDefinitionError(
      `Capability name ${JSON.stringify(name)} is invalid: use 1–128 characters from A–Z a–z 0–9 _ - . (e.g. "records.list").`,
    );
  }
  if (!descriptor.title?.trim()) throw new CapabilityDefinitionError(`Capability "${name}" needs a title.`);
  if (!descriptor.description?.trim()) {
    throw new CapabilityDefinitionError(`Capability "${name}" needs a description: the model chooses verbs by it.`);
  }
  if (descriptor.kind !== 'read' && descriptor.kind !== 'mutate') {
    throw new CapabilityDefinitionError(`Capability "${name}": kind must be "read" or "mutate".`);
  }
  if (descriptor.kind === 'read' && descriptor.annotations.readOnlyHint === false) {
    throw new CapabilityDefinitionError(`Capability "${name}" is a read but its annotations say readOnlyHint: false.`);
  }
  if (!(descriptor.input instanceof z.ZodType)) {
    throw new CapabilityDefinitionError(`Capability "${name}": input must be a zod schema (e.g. z.object({})).`);
  }
}
