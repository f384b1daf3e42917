import type { CapabilityDescriptor } from '../capability';
import type { CapabilityResult } from '../envelope';
import type { CapabilityInfo } from '../registry';

/** One entry of an MCP `tools/list` result. */
export interface McpToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations: CapabilityInfo['annotations'];
}

/**
 * A capability's JSON Schema as chat and REST publish it: the registry's
 * schema without its `$schema` marker (2020-12 is the dialect of the OpenAPI
 * 3.1 document, and Anthropic tool schemas carry none). The MCP door serves
 * the registry's schema with its marker (`mcpSchema`): MCP (2025-11-25)
 * asks servers to keep a tool's `$schema`. Otherwise the three are the very
 * same object.
 */
export function publishedSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

/** A capability's JSON Schema as the MCP door serves it: the registry's, its `$schema` dialect marker kept. */
export function mcpSchema(schema: Record<string, unknown>): Record<string, unknown> {
  return { ...schema };
}

/** Which capabilities the MCP door serves: every read, and the mutates the host names. */
export function exposedOnMcp(capability: Pick<CapabilityDescriptor, 'name' | 'kind'>, mutates: readonly string[] = []): boolean {
  return capability.kind === 'read' || mutates.includes(capability.name);
}

/**
 * The MCP door's tool list, generated from the registry in its stable order:
 * reads, plus the mutates the host opted in. Schemas (`mcpSchema`) and
 * annotations come from the registry, so they cannot drift from chat and REST.
 * @example
 * const tools = mcpTools(registry.describe(), ['notes.add']);
 */
export function mcpTools(capabilities: readonly CapabilityInfo[], mutates: readonly string[] = []): McpToolDefinition[] {
  return capabilities
    .filter((info) => exposedOnMcp(info, mutates))
    .map((info) => {
      const tool: McpToolDefinition = {
        name: info.name,
        title: info.title,
        description: info.description,
        inputSchema: mcpSchema(info.inputSchema),
        annotations: info.annotations,
      };
      if (info.outputSchema) tool.outputSchema = mcpSchema(info.outputSchema);
      return tool;
    });
}

/**
 * Keeps a result within `limit` characters of JSON, as the MCP door promises:
 * text blocks are cut from the end with a note saying how much was cut and
 * where the whole result is; a result whose structured part alone is too big
 * becomes an error result that says so (nothing is silently dropped).
 * @example
 * boundResult(result, 32_000, 'inv_abc');
 */
export function boundResult(result: CapabilityResult, limit: number, jobId?: string): CapabilityResult {
  // Most results are far within the limit: a walk that bounds the JSON's length spares writing it out.
  if (surelyWithin(result, limit)) return result;
  const size = JSON.stringify(result).length;
  if (size <= limit) return result;
  const where = jobId ? ` The whole result is at GET /v1/jobs/${jobId}.` : '';
  const fixed = JSON.stringify({ ...result, content: result.content.filter((b) => b.type !== 'text') }).length;
  const textBudget = limit - fixed - 200 * result.content.length;
  if (textBudget <= 0) {
    return {
      content: [{ type: 'text', text: `The result is ${size} characters, more than this door's limit of ${limit}.${where} Ask for less (filters, a page).` }],
      isError: true,
    };
  }
  let left = textBudget;
  const content = result.content.map((block) => {
    if (block.type !== 'text') return block;
    if (block.text.length <= left) {
      left -= block.text.length;
      return block;
    }
    const kept = block.text.slice(0, Math.max(0, left));
    const cut = block.text.length - kept.length;
    left = 0;
    return { ...block, text: `${kept}\n… [${cut} characters cut to stay within ${limit}.${where}]` };
  });
  return { ...result, content };
}

/**
 * True when `value`'s JSON is sure to be at most `budget` characters: an
 * upper bound (a string's every character counted as the longest escape,
 * a number as the longest number), so false only means "write it out and
 * count". A value with `toJSON`, an unusual type or nesting past 64 levels is
 * not bounded here.
 */
export function surelyWithin(value: unknown, budget: number): boolean {
  let left = budget;
  const walk = (v: unknown, depth: number): boolean => {
    if (typeof v === 'string') return (left -= v.length * 6 + 2) >= 0;
    if (typeof v === 'number' || typeof v === 'boolean' || v === null || v === undefined) return (left -= 24) >= 0;
    if (typeof v !== 'object' || depth > 64 || typeof (v as { toJSON?: unknown }).toJSON === 'function') return false;
    left -= 2;
    if (Array.isArray(v)) {
      for (const item of v) if ((left -= 1) < 0 || !walk(item, depth + 1)) return false;
      return left >= 0;
    }
    for (const key in v) if ((left -= key.length * 6 + 4) < 0 || !walk((v as Record<string, unknown>)[key], depth + 1)) return false;
    return left >= 0;
  };
  return walk(value, 0);
}

/**
 * One page of a `tools/list` answer: `pageSize` tools from the opaque
 * `cursor` on, with `nextCursor` when more follow. A cursor this door did
 * not hand out is a JSON-RPC invalid-params error (thrown as `InvalidCursor`).
 * @example
 * pageOfTools(tools, undefined, 2); // → { tools: [a, b], nextCursor: 'b2Zmc2V0OjI' }
 */
export function pageOfTools(tools: readonly McpToolDefinition[], cursor: string | undefined, pageSize: number): { tools: McpToolDefinition[]; nextCursor?: string } {
  let start = 0;
  if (cursor !== undefined) {
    const offset = /^offset:(\d{1,9})$/.exec(decodeCursor(cursor) ?? '');
    if (!offset || Number(offset[1]) > tools.length) throw new InvalidCursor(cursor);
    start = Number(offset[1]);
  }
  const end = start + pageSize;
  return { tools: tools.slice(start, end), ...(end < tools.length ? { nextCursor: encodeCursor(`offset:${end}`) } : {}) };
}

/** A `tools/list` cursor the door never gave out. */
export class InvalidCursor extends Error {
  readonly code = -32602;
  constructor(cursor: string) {
    super(`The cursor "${cursor.slice(0, 40)}" is not one this server gave out; list again without a cursor.`);
    this.name = 'InvalidCursor';
  }
}

function encodeCursor(text: string): string {
  return btoa(text).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

function decodeCursor(cursor: string): string | null {
  try {
    return atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return null;
  }
}
