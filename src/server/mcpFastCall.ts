import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  isJsonContentType,
  PROTOCOL_VERSION_META_KEY,
  ProtocolErrorCode,
  SERVER_INFO_META_KEY,
  specTypeSchemas,
  type CallToolResult,
} from '@modelcontextprotocol/server';

/** The one revision the fast path answers (the SDK's modern leg); every other goes through the SDK. */
const MODERN = '2026-07-28';

/** A `tools/call` the door answers without the SDK's per-request transport (see `plainCall`). */
export interface PlainCall {
  id: string | number;
  name: string;
  args: Record<string, unknown>;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
function onlyKeys(value: Record<string, unknown>, allowed: readonly string[]): boolean {
  for (const key in value) if (!allowed.includes(key)) return false;
  return true;
}

const BODY_KEYS = ['jsonrpc', 'id', 'method', 'params'] as const;
const PARAMS_KEYS = ['name', 'arguments', '_meta'] as const;
const META_KEYS = [PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY] as const;

/**
 * A 2026-07-28 `tools/call` the SDK would answer with one plain JSON result and nothing else, or
 * null. Plain means: one JSON-RPC request (no batch) with a string or integer id; its standard
 * headers (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`) present and equal to its body's; params
 * of only `name`, `arguments` (an object) and the `_meta` envelope; an envelope of only the protocol
 * version, a `{ name, version }` client and capabilities of at most `roots` and `sampling`, so no
 * task augmentation, no progress token, no log level, no elicitation, no retry material: nothing the
 * SDK or the door's own handler would act on beyond calling the tool. Anything else is null and goes
 * through the SDK as before.
 */
export function plainCall(request: Request, body: unknown): PlainCall | null {
  if (!isJsonContentType(request.headers.get('content-type'))) return null;
  if (!isPlainObject(body) || !onlyKeys(body, BODY_KEYS) || body.jsonrpc !== '2.0' || body.method !== 'tools/call') return null;
  const id = body.id;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return null;
  const params = body.params;
  if (!isPlainObject(params) || !onlyKeys(params, PARAMS_KEYS)) return null;
  const { name, arguments: args, _meta: meta } = params;
  if (typeof name !== 'string' || name === '') return null;
  if (args !== undefined && !isPlainObject(args)) return null;
  if (!isPlainObject(meta) || !onlyKeys(meta, META_KEYS) || meta[PROTOCOL_VERSION_META_KEY] !== MODERN) return null;
  if (!plainClient(meta[CLIENT_INFO_META_KEY]) || !plainCapabilities(meta[CLIENT_CAPABILITIES_META_KEY])) return null;
  const headers = request.headers;
  if (headers.get('mcp-protocol-version') !== MODERN || headers.get('mcp-method') !== 'tools/call' || headers.get('mcp-name') !== name) return null;
  return { id: id as string | number, name, args: args ?? {} };
}

/** No client info, or exactly `{ name, version }` as strings. */
function plainClient(info: unknown): boolean {
  if (info === undefined) return true;
  return isPlainObject(info) && onlyKeys(info, ['name', 'version']) && typeof info.name === 'string' && typeof info.version === 'string';
}

/** Capabilities of at most `roots` (`{}` or `{ listChanged: boolean }`) and `sampling` (`{}`): none the door or the SDK acts on. */
function plainCapabilities(capabilities: unknown): boolean {
  if (!isPlainObject(capabilities) || !onlyKeys(capabilities, ['roots', 'sampling'])) return false;
  const { roots, sampling } = capabilities;
  if (roots !== undefined && !(isPlainObject(roots) && onlyKeys(roots, ['listChanged']) && (roots.listChanged === undefined || typeof roots.listChanged === 'boolean'))) return false;
  return sampling === undefined || (isPlainObject(sampling) && Object.keys(sampling).length === 0);
}

/**
 * The HTTP answer the SDK gives a plain call whose handler returned `result` (or threw `error`):
 * the result checked against MCP's `CallToolResult` (an empty `content` filled in first, as the SDK
 * does), stamped `resultType: "complete"` and the server's identity in `_meta`; a thrown error is a
 * JSON-RPC error with its code (-32603 when it has none). Both are 200 with a JSON body.
 */
export function plainAnswer(call: PlainCall, outcome: { result: CallToolResult } | { error: unknown }, serverInfo: { name: string; version: string }): Response {
  let message: unknown;
  if ('result' in outcome) {
    const checked = checkedResult(outcome.result);
    message = checked.ok ? { result: stamped(checked.value, serverInfo), jsonrpc: '2.0', id: call.id } : errorMessage(call.id, ProtocolErrorCode.InvalidParams, checked.message);
  } else {
    const error = (outcome.error ?? {}) as { code?: unknown; message?: string; data?: unknown };
    const code = Number.isSafeInteger(error.code) ? (error.code as number) : ProtocolErrorCode.InternalError;
    message = errorMessage(call.id, code, error.message ?? 'Internal error', error.data);
  }
  // A string body: the node server writes it as it is (no stream, unlike `Response.json`).
  return new Response(JSON.stringify(message), { status: 200, headers: { 'content-type': 'application/json' } });
}

interface ZodLike {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: unknown };
}
const CALL_TOOL_RESULT = specTypeSchemas.CallToolResult;

/**
 * The result as the SDK's result check leaves it (a parse of MCP's schema: the same keys, in its
 * order). One the schema refuses is -32602 as in the SDK; the door's results never are, and the
 * words of that message are zod's and may differ from the SDK's era schema.
 */
function checkedResult(result: CallToolResult): { ok: true; value: Record<string, unknown> } | { ok: false; message: string } {
  const foreign = ['task', 'inputRequests', 'requestState'].some((key) => key in result);
  const normalized = result.content === undefined && !foreign ? { ...result, content: [] } : result;
  const common = commonResult(normalized);
  if (common) return { ok: true, value: common };
  // The spec type's own zod schema (the SDK's `specTypeSchemas` are zod at run time).
  const parsed = (CALL_TOOL_RESULT as unknown as ZodLike).safeParse(normalized);
  if (!parsed.success) return { ok: false, message: `Invalid tools/call result: ${String(parsed.error)}` };
  return { ok: true, value: parsed.data as Record<string, unknown> };
}

/**
 * What the schema's parse gives for the commonest result, made without it: text blocks of only
 * `type` and `text`, an optional plain `structuredContent` and boolean `isError`, nothing else.
 * The parse keeps the schema's keys in its own order (`content`, `structuredContent`, `isError`)
 * and a text block's (`type`, `text`); anything else is null and goes through the parse.
 */
export function commonResult(result: Record<string, unknown>): Record<string, unknown> | null {
  for (const key in result) if (key !== 'content' && key !== 'structuredContent' && key !== 'isError') return null;
  const { content, structuredContent, isError } = result;
  if (!Array.isArray(content)) return null;
  const blocks: { type: 'text'; text: string }[] = [];
  for (const block of content) {
    if (!isPlainObject(block) || block.type !== 'text' || typeof block.text !== 'string' || !onlyKeys(block, ['type', 'text'])) return null;
    blocks.push({ type: 'text', text: block.text });
  }
  if (structuredContent !== undefined && (!isPlainObject(structuredContent) || Object.getPrototypeOf(structuredContent) !== Object.prototype)) return null;
  if (isError !== undefined && typeof isError !== 'boolean') return null;
  const value: Record<string, unknown> = { content: blocks };
  if (structuredContent !== undefined) value.structuredContent = structuredContent;
  if (isError !== undefined) value.isError = isError;
  return value;
}

/** Stamps the checked result in place (it is the check's own new object): a key it lacks goes last, one it has keeps its place, as a spread would. */
function stamped(result: Record<string, unknown>, serverInfo: { name: string; version: string }): Record<string, unknown> {
  if (result.resultType === undefined) result.resultType = 'complete';
  const meta = result._meta;
  if (meta === undefined) result._meta = { [SERVER_INFO_META_KEY]: serverInfo };
  else if (isPlainObject(meta) && meta[SERVER_INFO_META_KEY] === undefined) result._meta = { ...meta, [SERVER_INFO_META_KEY]: serverInfo };
  return result;
}

function errorMessage(id: string | number, code: number, message: string, data?: unknown) {
  // The SDK's 2026-07-28 codec answers ResourceNotFound (-32002) as invalid params.
  const wire = code === -32002 ? ProtocolErrorCode.InvalidParams : code;
  return { jsonrpc: '2.0', id, error: { code: wire, message, ...(data !== undefined ? { data } : {}) } };
}
