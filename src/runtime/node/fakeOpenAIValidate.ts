/**
 * The checks OpenAI's Chat Completions API makes on a request body, with the
 * error it answers for each (status, `{ error: { message, type, param, code } }`),
 * in its words. A fake that accepts more than the API is a bug: every rule
 * here is one the API enforces.
 */

/** An API error as the fake answers it. */
export interface OpenAIErrorAnswer {
  status: number;
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool', 'function'];
const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const invalid = (message: string, param: string | null, code: string | null = null): OpenAIErrorAnswer => ({ status: 400, message, type: 'invalid_request_error', param, code });

export interface ValidateOptions {
  /** Models the server serves; another is a 404. @default any */
  models?: readonly string[];
}

/**
 * The API's answer to a body it refuses, or null when it takes it.
 * @example
 * validateChatRequest({ model: 'gpt-4o-mini', messages: [{ role: 'tool', tool_call_id: 'x', content: '' }] });
 * // → 400 "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'."
 */
export function validateChatRequest(body: Record<string, unknown>, options: ValidateOptions = {}): OpenAIErrorAnswer | null {
  if (typeof body.model !== 'string' || !body.model) return invalid('you must provide a model parameter', null);
  if (options.models && !options.models.includes(body.model)) {
    return { status: 404, message: `The model \`${body.model}\` does not exist or you do not have access to it.`, type: 'invalid_request_error', param: null, code: 'model_not_found' };
  }
  if (body.messages === undefined) return invalid("Missing required parameter: 'messages'.", 'messages', 'missing_required_parameter');
  if (!Array.isArray(body.messages)) return invalid(`Invalid type for 'messages': expected an array of objects, but got ${typeName(body.messages)} instead.`, 'messages', 'invalid_type');
  if (!body.messages.length) return invalid("Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.", 'messages', 'empty_array');
  if (body.stream_options !== undefined && body.stream !== true) return invalid("The 'stream_options' parameter is only allowed when 'stream' is enabled.", 'stream_options');
  const tools = validateTools(body.tools);
  if (tools) return tools;
  for (const [i, m] of (body.messages as unknown[]).entries()) {
    const wrong = validateMessage(m, i);
    if (wrong) return wrong;
  }
  return validateOrder(body.messages as Record<string, unknown>[]);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function validateTools(tools: unknown): OpenAIErrorAnswer | null {
  if (tools === undefined) return null;
  if (!Array.isArray(tools)) return invalid(`Invalid type for 'tools': expected an array of objects, but got ${typeName(tools)} instead.`, 'tools', 'invalid_type');
  if (!tools.length) return invalid("Invalid 'tools': empty array. Expected an array with minimum length 1, but got an empty array instead.", 'tools', 'empty_array');
  for (const [i, tool] of tools.entries()) {
    const t = tool as { type?: unknown; function?: { name?: unknown; parameters?: unknown } };
    if (t?.type !== 'function') return invalid(`Invalid value: '${String(t?.type)}'. Supported values are: 'function' and 'custom'.`, `tools[${i}].type`, 'invalid_value');
    const name = t.function?.name;
    if (typeof name !== 'string') return invalid(`Missing required parameter: 'tools[${i}].function.name'.`, `tools[${i}].function.name`, 'missing_required_parameter');
    if (!NAME.test(name)) {
      return invalid(`Invalid 'tools[${i}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`, `tools[${i}].function.name`, 'invalid_value');
    }
    const parameters = t.function?.parameters;
    if (parameters === undefined) continue;
    const schema = parameters as { type?: unknown };
    if (!schema || typeof schema !== 'object' || Array.isArray(schema) || schema.type !== 'object') {
      const got = schema && typeof schema === 'object' && !Array.isArray(schema) ? `type: "${String(schema.type)}"` : typeName(parameters);
      return invalid(`Invalid schema for function '${name}': schema must be a JSON Schema of 'type: "object"', got '${got}'.`, `tools[${i}].function.parameters`, 'invalid_function_parameters');
    }
  }
  const names = tools.map((t: { function: { name: string } }) => t.function.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) return invalid(`Invalid 'tools': duplicate function name '${twice}'.`, 'tools', 'invalid_value');
  return null;
}

/** Text content: a string, or an array of `{ type: 'text', text }` parts (and images for a user). */
function validContent(content: unknown, role: string): boolean {
  if (typeof content === 'string') return true;
  if (!Array.isArray(content) || !content.length) return false;
  return content.every((p: { type?: unknown; text?: unknown }) => (p?.type === 'text' && typeof p.text === 'string') || (role === 'user' && p?.type === 'image_url'));
}

function validateMessage(message: unknown, i: number): OpenAIErrorAnswer | null {
  const m = message as Record<string, unknown>;
  if (!m || typeof m !== 'object' || Array.isArray(m)) return invalid(`Invalid type for 'messages[${i}]': expected an object, but got ${typeName(m)} instead.`, `messages[${i}]`, 'invalid_type');
  if (m.role === undefined) return invalid(`Missing required parameter: 'messages[${i}].role'.`, `messages[${i}].role`, 'missing_required_parameter');
  if (typeof m.role !== 'string' || !ROLES.includes(m.role)) {
    return invalid(`Invalid value: '${String(m.role)}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`, `messages[${i}].role`, 'invalid_value');
  }
  const role = m.role;
  if (role === 'assistant') {
    const calls = m.tool_calls;
    if (calls !== undefined && (!Array.isArray(calls) || !calls.length)) {
      return invalid(`Invalid 'messages[${i}].tool_calls': empty array. Expected an array with minimum length 1, but got an empty array instead.`, `messages[${i}].tool_calls`, 'empty_array');
    }
    for (const [j, c] of ((calls as Record<string, any>[] | undefined) ?? []).entries()) {
      const at = `messages[${i}].tool_calls[${j}]`;
      if (typeof c?.id !== 'string' || !c.id) return invalid(`Missing required parameter: '${at}.id'.`, `${at}.id`, 'missing_required_parameter');
      if (c.type !== 'function') return invalid(`Missing required parameter: '${at}.type'.`, `${at}.type`, 'missing_required_parameter');
      if (typeof c.function?.name !== 'string') return invalid(`Missing required parameter: '${at}.function.name'.`, `${at}.function.name`, 'missing_required_parameter');
      if (typeof c.function?.arguments !== 'string') return invalid(`Invalid type for '${at}.function.arguments': expected a string, but got ${typeName(c.function?.arguments)} instead.`, `${at}.function.arguments`, 'invalid_type');
    }
    const hasContent = m.content !== undefined && m.content !== null;
    if (hasContent && !validContent(m.content, role)) return invalid(`Invalid 'messages[${i}].content': expected a string or an array of text parts.`, `messages[${i}].content`, 'invalid_type');
    if (!hasContent && !calls) return invalid(`Invalid value for 'content': expected a string, got null.`, `messages.[${i}].content`, null);
    return null;
  }
  if (m.content === undefined) return invalid(`Missing required parameter: 'messages[${i}].content'.`, `messages[${i}].content`, 'missing_required_parameter');
  if (!validContent(m.content, role)) return invalid(`Invalid 'messages[${i}].content': expected a string or an array of text parts.`, `messages[${i}].content`, 'invalid_type');
  if (role === 'tool' && (typeof m.tool_call_id !== 'string' || !m.tool_call_id)) {
    return invalid(`Missing required parameter: 'messages[${i}].tool_call_id'.`, `messages[${i}].tool_call_id`, 'missing_required_parameter');
  }
  return null;
}

/**
 * The order rules: a `tool` message answers a call of the assistant message
 * that opens its block (each call once), and every call of an assistant
 * message is answered before the next message of another role.
 */
function validateOrder(messages: readonly Record<string, unknown>[]): OpenAIErrorAnswer | null {
  let open: { index: number; ids: Set<string>; answered: Set<string> } | null = null;
  const unanswered = (at: number) =>
    invalid(
      `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open!.ids].filter((id) => !open!.answered.has(id)).join(', ')}`,
      `messages.[${at}].role`,
    );
  for (const [i, m] of messages.entries()) {
    if (m.role === 'tool') {
      const id = m.tool_call_id as string;
      if (!open || !open.ids.has(id) || open.answered.has(id)) {
        return invalid("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", `messages.[${i}].role`);
      }
      open.answered.add(id);
      continue;
    }
    if (open && open.answered.size < open.ids.size) return unanswered(open.index);
    open = null;
    if (m.role === 'assistant' && Array.isArray(m.tool_calls)) {
      open = { index: i, ids: new Set((m.tool_calls as { id: string }[]).map((c) => c.id)), answered: new Set() };
    }
  }
  if (open && open.answered.size < open.ids.size) return unanswered(open.index);
  return null;
}
