import { z } from 'zod';
import {
  CapabilityDefinitionError,
  checkDescriptor,
  type Actor,
  type CapabilityDescriptor,
  type McpSource,
  type ToolAnnotations,
} from '../capability';
import type { Postcondition } from '../postconditions';
import { appResourceOf, toolUi, toolVisibility, withAppPointer, type McpAppResource, type McpResourceContents } from '../mcpApp';
import { withoutPublicSuffixWildcards } from './viewOrigins';
import type { McpConnection } from './mcpConnection';
import { followJob, runningJob } from './mcpJobFollow';

export interface McpCapabilityOptions {
  /** The tool's name on the server. */
  tool: string;
  /** @default `${connection.name}.${tool}` */
  name?: string;
  /** @default the tool's title, then `annotations.title`, then its name (MCP's display order) */
  title?: string;
  /** @default the tool's description */
  description?: string;
  /** How users ask for it, in their words (see `CapabilityDescriptor.examples`). */
  examples?: readonly string[];
  /** @default 'read' when the tool says `readOnlyHint: true`, else 'mutate' */
  kind?: 'read' | 'mutate';
  /** Overrides the server's hints (they are only hints, and the host may know better). */
  annotations?: ToolAnnotations;
  /** Arguments fixed by the host (e.g. `{ collection: 'acme' }`): hidden from the schema, and no caller can change them. */
  pinned?: Record<string, unknown>;
  actor?: Actor;
  requires_user_confirmation?: boolean;
  expected_effect?: readonly Postcondition[];
  /** How long a call may go without an answer or progress. @default the connection's */
  timeoutMs?: number;
  /**
   * Whether a tool whose listing says `execution.taskSupport: "optional"` runs as an MCP task
   * (its status messages as progress, Stop sends `tasks/cancel`), for a call that may run long.
   * A tool that says `"required"` always runs as a task.
   * @default true
   */
  asTask?: boolean;
}

type JsonObjectSchema = { type?: unknown; properties?: Record<string, unknown>; required?: string[]; [key: string]: unknown };

/**
 * One tool of an MCP server as a capability. Its title, description, input
 * and output schemas and annotations (with MCP's defaults filled in) come
 * from the server's tool listing; arguments are validated against the
 * tool's JSON Schema (through zod's `fromJSONSchema`) before the call.
 * Progress notifications become `capability.progress`, an `isError` result
 * an error card, a server that is down or too slow a recoverable error, and
 * cancelling sends MCP cancellation. A tool that runs as a task
 * (`execution.taskSupport`, see `asTask`) reports its task's status messages
 * as progress; a failed task is an error card in words, and Stop sends
 * `tasks/cancel`.
 * @example
 * const corpus = createMcpConnection({ name: 'corpus', url: 'http://127.0.0.1:8788/mcp' });
 * registry.register(await defineMcpCapability(corpus, { tool: 'search', pinned: { collection: 'acme' } }));
 */
export async function defineMcpCapability(
  connection: McpConnection,
  options: McpCapabilityOptions,
): Promise<CapabilityDescriptor<Record<string, unknown>> & { source: McpSource }> {
  const name = options.name ?? `${connection.name}.${options.tool}`;
  const tools = await connection.listTools();
  const tool = tools.find((t) => t.name === options.tool);
  if (!tool) {
    const offered = tools.map((t) => t.name).join(', ') || 'none';
    throw new CapabilityDefinitionError(`Capability "${name}": the MCP server "${connection.name}" has no tool "${options.tool}" (it offers: ${offered}).`);
  }
  const pinned = options.pinned ?? {};
  const inputSchema = withoutPinned(name, tool.inputSchema as JsonObjectSchema, pinned);
  const annotations = withDefaults({ ...withoutUndefined(tool.annotations ?? {}), ...options.annotations });
  const description = options.description ?? tool.description;
  if (!description?.trim()) {
    throw new CapabilityDefinitionError(`Capability "${name}": the MCP tool "${tool.name}" has no description; pass one (the model chooses verbs by it).`);
  }
  const timeoutMs = options.timeoutMs;
  const idempotent = annotations.readOnlyHint === true || annotations.idempotentHint === true;
  const ui = toolUi(tool);
  const listed = (tool as { execution?: { taskSupport?: unknown } }).execution?.taskSupport;
  const taskSupport = listed === 'required' || (listed === 'optional' && options.asTask !== false) ? listed : undefined;
  const source: McpSource = {
    type: 'mcp',
    server: connection.name,
    tool: tool.name,
    handler: async (args: Record<string, unknown>, ctx) => {
      const result = await connection.callTool(tool.name, args, {
        signal: ctx.signal,
        idempotent,
        invocationId: ctx.invocationId,
        threadKey: ctx.threadKey,
        ...(taskSupport ? { taskSupport } : {}),
        onprogress: (p) => ctx.progress(p.progress, p.total !== undefined && p.total > 0 ? p.total : undefined, p.message),
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      });
      // The server runs it on as a job (a client without tasks): follow the job to its end.
      const job = runningJob(result);
      const final = job ? await followJob(connection, job, ctx, { server: connection.name, tool: tool.name }) : result;
      // A tool with a view: its result points at the view; the HTML is read when a card asks for it, never logged.
      return ui ? withAppPointer(final, ui.resourceUri) : final;
    },
  };
  if (ui) source.app = { ...ui, read: cachedView(connection, ui.resourceUri) };
  // An app-only tool often names no view of its own: who may call it is kept either way.
  const visibility = toolVisibility(tool);
  if (visibility) source.visibility = visibility;
  const descriptor: CapabilityDescriptor<Record<string, unknown>> & { source: McpSource } = {
    name,
    title: options.title ?? tool.title ?? tool.annotations?.title ?? tool.name,
    description,
    kind: options.kind ?? (annotations.readOnlyHint ? 'read' : 'mutate'),
    input: convert(name, 'input', inputSchema) as z.ZodType<Record<string, unknown>>,
    annotations,
    source,
  };
  if (tool.outputSchema) descriptor.output = convert(name, 'output', tool.outputSchema) as z.ZodType<Record<string, unknown>>;
  if (Object.keys(pinned).length) descriptor.pinned = pinned;
  if (options.examples?.length) descriptor.examples = options.examples;
  if (options.actor) descriptor.actor = options.actor;
  if (options.requires_user_confirmation) descriptor.requires_user_confirmation = true;
  if (options.expected_effect) descriptor.expected_effect = options.expected_effect;
  checkDescriptor(descriptor);
  return descriptor;
}

/** Reads a view at most once a minute (a failure is not kept). */
function cachedView(connection: McpConnection, uri: string, ttlMs = 60_000): () => Promise<McpAppResource> {
  let cached: { at: number; view: Promise<McpAppResource> } | null = null;
  return () => {
    if (cached && Date.now() - cached.at < ttlMs) return cached.view;
    const view = connection.readResource(uri).then((contents) => withoutPublicSuffixWildcards(appResourceOf(connection.name, uri, contents as McpResourceContents[])));
    const entry = { at: Date.now(), view };
    cached = entry;
    view.catch(() => {
      if (cached === entry) cached = null;
    });
    return view;
  };
}

/** The tool's input schema without the pinned properties; each pinned value must fit the tool's own schema. */
function withoutPinned(name: string, schema: JsonObjectSchema, pinned: Record<string, unknown>): JsonObjectSchema {
  const keys = Object.keys(pinned);
  if (!keys.length) return schema;
  const properties = { ...schema.properties };
  for (const key of keys) {
    if (!(key in properties)) {
      throw new CapabilityDefinitionError(
        `Capability "${name}" pins "${key}", which the tool does not take (it takes: ${Object.keys(properties).join(', ') || 'nothing'}).`,
      );
    }
    const fits = convert(name, `input.${key}`, properties[key]).safeParse(pinned[key]);
    if (!fits.success) {
      throw new CapabilityDefinitionError(`Capability "${name}" pins "${key}" to a value the tool refuses: ${fits.error.issues[0]?.message}.`);
    }
    delete properties[key];
  }
  const required = schema.required?.filter((key) => !keys.includes(key));
  return { ...schema, properties, ...(required ? { required } : {}) };
}

function convert(name: string, what: string, schema: unknown): z.ZodType {
  try {
    return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    throw new CapabilityDefinitionError(`Capability "${name}": the tool's ${what} schema could not be read: ${(error as Error).message}.`);
  }
}

/**
 * MCP's defaults made explicit: `readOnlyHint: false`, `openWorldHint: true`
 * and, for a tool that is not read-only (the only case where they mean
 * anything), `destructiveHint: true`, `idempotentHint: false`.
 */
function withDefaults(given: ToolAnnotations): ToolAnnotations {
  const readOnlyHint = given.readOnlyHint ?? false;
  const base: ToolAnnotations = readOnlyHint ? { readOnlyHint } : { readOnlyHint, destructiveHint: true, idempotentHint: false };
  return { ...base, openWorldHint: true, ...given };
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
