import type * as classic from 'zod';
import type * as z from 'zod/mini';
import type { Actor, ToolAnnotations } from './capabilitySchemas';
import type { CapabilityResult } from './envelope';
import { expectedEffectProblems, type Postcondition, type PostconditionProbes } from './postconditions';
import type { McpAppResource } from './mcpApp';
import type { SkillFrontmatter } from './skillMd';

// The browser needs these two schemas without classic zod, so they live in a zod/mini module.
export { ActorSchema, ToolAnnotationsSchema } from './capabilitySchemas';
export type { Actor, ToolAnnotations } from './capabilitySchemas';

/** What a handler may do while it runs. */
export interface CapabilityContext {
  /** Id of this invocation, as carried by its events. */
  invocationId: string;
  /**
   * The thread it runs for, as its key (docs/glossary.md "Thread key"): `space/user/id` on a thread
   * host, the thread's id in a page's own workspace, `rest:<user>` / `mcp:<user>` for a door's call
   * without a thread. The same as the job's `threadKey`.
   */
  threadKey: string;
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

/** An in-process function. */
export interface TsSource {
  type: 'ts';
  handler: CapabilityHandler<any>;
}

/** A SKILL.md: invoking it loads its instructions into the active-skills prompt slab. */
export interface SkillSource {
  type: 'skill';
  /** The skill's name from its frontmatter (also the capability's name). */
  name: string;
  /** The whole SKILL.md body, never truncated: what the active-skills slab holds. */
  body: string;
  frontmatter: SkillFrontmatter;
  /** Where the SKILL.md was read from, when known. */
  file?: string;
}

/** One tool of an MCP server, called through an MCP client. */
export interface McpSource {
  type: 'mcp';
  /** The server's name, as the host named the connection. */
  server: string;
  /** The tool's name on that server. */
  tool: string;
  /** Calls the tool; built by `defineMcpCapability`. */
  handler: CapabilityHandler<any>;
  /** The tool's MCP App view (`_meta.ui.resourceUri`), when it declares one. */
  app?: McpSourceApp;
  /** Who may call it (MCP Apps' `_meta.ui.visibility`), when the tool says, view or not: `["app"]` is for its app only, never the model. */
  visibility?: readonly ('model' | 'app')[];
}

/** An MCP tool's `ui://` view: who may call the tool, and how the host reads the view (server side). */
export interface McpSourceApp {
  resourceUri: string;
  /** `model`, `app` or both (MCP Apps' `visibility`). */
  visibility: readonly ('model' | 'app')[];
  /** Reads and checks the view from its server (cached briefly); rejects with a message in words. */
  read(): Promise<McpAppResource>;
}

/** A registered command run without a shell (server side only). */
export interface ScriptSource {
  type: 'script';
  /** The argv template, e.g. `['node', 'scripts/ingest.mjs', '{{file}}']`. */
  command: readonly string[];
  /** Working directory, relative to the app root. */
  cwd: string;
  /** The process tree is killed after this long. */
  timeout_ms: number;
  /** Runs the process; built by `defineScriptCapability` in `chatsurface/server`. */
  handler: CapabilityHandler<any>;
}

/** Where a capability's work happens. */
export type CapabilitySource = TsSource | SkillSource | McpSource | ScriptSource;

/**
 * Thrown by a handler to fail with a specific error code (e.g. `timeout`,
 * `unavailable`) instead of the generic `handler_error`.
 */
export class CapabilityFailure extends Error {
  override name = 'CapabilityFailure';
  constructor(
    /** Goes to `capability.error` as `error.code`. */
    readonly code: string,
    message: string,
    /** Whether trying again may succeed. @default true */
    readonly recoverable = true,
  ) {
    super(message);
  }
}

/** A registered verb. */
export interface CapabilityDescriptor<I = any> {
  /** Dotted machine name, e.g. `records.import_csv` (MCP tool-name characters, 1–128). */
  name: string;
  /** Human title shown on chips and cards. */
  title: string;
  /** What it does and when to use it; the model reads this. */
  description: string;
  /**
   * How users ask for it, in their words ("bring in customers.csv", "score the
   * new ones"): the offline model matches requests by them, and the doors' docs
   * list them.
   */
  examples?: readonly string[];
  /** `read` never changes the workspace; `mutate` may. */
  kind: 'read' | 'mutate';
  /** Arguments schema; the handler receives its output. */
  input: ZodSchema<I>;
  /** Optional schema `structuredContent` must satisfy. */
  output?: ZodSchema<Record<string, unknown>>;
  /** MCP-style hints. */
  annotations: ToolAnnotations;
  /** The character shown in the cast row while it runs. */
  actor?: Actor;
  /** A mutate that must be approved by the user before it runs. @default false */
  requires_user_confirmation?: boolean;
  /** Postconditions the runtime checks against the workspace after it finishes. Required for scripts. */
  expected_effect?: readonly Postcondition[];
  /**
   * Arguments fixed by the host (e.g. a tenant's collection): merged over the
   * caller's, left out of the input schema, and a caller that sets one to
   * another value is refused.
   */
  pinned?: Readonly<Record<string, unknown>>;
  /** Probes this capability brings for its own postconditions (a script's file lister). */
  probes?: PostconditionProbes;
  source: CapabilitySource;
}

/** What `defineCapability` takes for an in-process capability. */
export interface CapabilityDefinition<S extends ZodSchema<Record<string, unknown>>> {
  name: string;
  title: string;
  description: string;
  /** How users ask for it, in their words; see `CapabilityDescriptor.examples`. */
  examples?: readonly string[];
  /** @default 'read' */
  kind?: 'read' | 'mutate';
  input: S;
  output?: ZodSchema<Record<string, unknown>>;
  annotations?: ToolAnnotations;
  actor?: Actor;
  requires_user_confirmation?: boolean;
  /** Postconditions checked after it finishes. */
  expected_effect?: readonly Postcondition[];
  /** Arguments fixed by the host; the handler receives them merged in. */
  pinned?: Readonly<Record<string, unknown>>;
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
export function defineCapability<S extends ZodSchema<Record<string, unknown>>>(
  definition: CapabilityDefinition<S>,
): CapabilityDescriptor<z.infer<S>> & { source: TsSource } {
  const { handler, ...rest } = definition;
  const kind = rest.kind ?? 'read';
  const descriptor: CapabilityDescriptor<z.infer<S>> & { source: TsSource } = {
    ...rest,
    input: rest.input as unknown as ZodSchema<z.infer<S>>,
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
  if (descriptor.examples !== undefined && (!Array.isArray(descriptor.examples) || descriptor.examples.some((e) => typeof e !== 'string' || !e.trim()))) {
    throw new CapabilityDefinitionError(`Capability "${name}": examples must be a list of non-empty phrasings (e.g. ["bring in customers.csv"]).`);
  }
  if (descriptor.kind !== 'read' && descriptor.kind !== 'mutate') {
    throw new CapabilityDefinitionError(`Capability "${name}": kind must be "read" or "mutate".`);
  }
  if (descriptor.kind === 'read' && descriptor.annotations.readOnlyHint === false) {
    throw new CapabilityDefinitionError(`Capability "${name}" is a read but its annotations say readOnlyHint: false.`);
  }
  if (!isZodSchema(descriptor.input)) {
    throw new CapabilityDefinitionError(`Capability "${name}": input must be a zod schema (e.g. z.object({})).`);
  }
  const keys = inputKeys(descriptor.input);
  checkSource(descriptor);
  if (descriptor.expected_effect !== undefined) {
    const known = keys && [...keys, ...Object.keys(descriptor.pinned ?? {})];
    const problems = expectedEffectProblems(descriptor.expected_effect, known);
    if (problems.length) throw new CapabilityDefinitionError(`Capability "${name}": ${problems.join('; ')}.`);
  }
  for (const key of Object.keys(descriptor.pinned ?? {})) {
    if (keys?.includes(key)) {
      throw new CapabilityDefinitionError(`Capability "${name}" pins "${key}" but its input schema also offers it: leave pinned arguments out of input.`);
    }
  }
}

/** The field names of an object input schema; null for other schemas. */
export function inputKeys(input: z.core.$ZodType): string[] | null {
  const def = input._zod.def;
  return def.type === 'object' ? Object.keys((def as z.core.$ZodObjectDef).shape) : null;
}

/**
 * A zod 4 schema, classic (`import { z } from 'zod'`) or mini (`import * as z from 'zod/mini'`,
 * the smaller one for pages): capabilities take either.
 */
export type ZodSchema<O = unknown> = classic.ZodType<O, any> | z.ZodMiniType<O, any>;

/** True for a zod 4 schema, classic or mini. */
export function isZodSchema(value: unknown): value is ZodSchema {
  const inner = typeof value === 'object' && value !== null ? (value as { _zod?: { def?: unknown } })._zod : undefined;
  return typeof inner?.def === 'object' && typeof (value as { safeParse?: unknown }).safeParse === 'function';
}

function checkSource({ name, source, expected_effect }: CapabilityDescriptor): void {
  switch (source?.type) {
    case 'ts':
    case 'mcp':
    case 'script':
      if (typeof source.handler !== 'function') {
        throw new CapabilityDefinitionError(`Capability "${name}": its ${source.type} source has no handler function.`);
      }
      if (source.type === 'script' && !expected_effect?.length) {
        throw new CapabilityDefinitionError(
          `Script capability "${name}" has no expected_effect: say what it must change (e.g. [{ type: 'row_count_change', entity: 'records', op: '>=', value: 1 }]) so the runtime can check it.`,
        );
      }
      return;
    case 'skill':
      if (typeof source.body !== 'string') throw new CapabilityDefinitionError(`Skill capability "${name}" has no body.`);
      return;
    default:
      throw new CapabilityDefinitionError(`Capability "${name}": source.type must be ts, skill, mcp or script.`);
  }
}
