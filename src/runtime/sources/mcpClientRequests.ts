import {
  ProtocolError,
  ProtocolErrorCode,
  type Client,
  type ClientCapabilities,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type ElicitRequestFormParams,
} from '@modelcontextprotocol/client';
import { z } from 'zod';

/**
 * The requests an MCP server sends its client while one of its tools runs (MCP's "client
 * features"): sampling (the server asks the client's model for a message) and elicitation (the
 * server asks the user for values, or to open a link). A connection answers them through the
 * handlers its host gives; without a handler the capability is not declared, and a server that
 * asks anyway gets an error that says why in plain words. A workspace server gives its consumed
 * servers an `elicit` handler that asks in the chat (`server/chatElicitation.ts`: a row of the
 * call's thread, answered by its principal), so `McpCallInfo.threadKey` is where a question goes.
 */

/** Which call of the connection a server's request came during, when that is known. */
export interface McpCallInfo {
  /** The tool that was running. */
  tool: string;
  /** The capability invocation the call runs for (its card), when the call came through `defineMcpCapability`. */
  invocationId?: string;
  /** The thread key of that invocation (`CapabilityContext.threadKey`). */
  threadKey?: string;
  /** The MCP task the request belongs to (`_meta["io.modelcontextprotocol/related-task"]`), when it names one. */
  taskId?: string;
}

/** What a sampling or elicitation handler is told besides the request. */
export interface McpClientRequestContext {
  /** The connection's name (`McpConnectionOptions.name`), e.g. `corpus`. */
  server: string;
  /**
   * The call it belongs to: the call whose task it names, else the only call running on this
   * connection. Absent when several calls run and the request names none of them.
   */
  call?: McpCallInfo;
  /** Aborted when the server withdraws the request or the user stops the call. */
  signal: AbortSignal;
}

/** A form the server asks the user to fill (elicitation, form mode). */
export interface McpFormElicitation {
  mode: 'form';
  /** What the server asks, in its words. */
  message: string;
  /** The fields: a flat object schema of strings, numbers, booleans and enums (MCP's restricted subset). */
  requestedSchema: ElicitRequestFormParams['requestedSchema'];
}

/** A page the server asks the user to open (elicitation, URL mode): sign-in, payment, consent. Only `https:` URLs without a user name or password reach a handler. */
export interface McpUrlElicitation {
  mode: 'url';
  /** Why, in the server's words. */
  message: string;
  /** The `https:` URL to open. */
  url: string;
  /** The URL's host name, to show the user where the link goes (e.g. `accounts.example.com`). */
  host: string;
  /** The server's id for this elicitation. */
  elicitationId: string;
}

export type McpElicitation = McpFormElicitation | McpUrlElicitation;

/** One field's value in an accepted form. */
export type McpElicitationValue = string | number | boolean | string[];

/** The user's answer: `accept` (with the form's values; a URL request has none), `decline` (said no) or `cancel` (dismissed it). */
export interface McpElicitationAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, McpElicitationValue>;
}

/**
 * Asks the user what a server wants to know. Resolve with the user's answer; accepted content
 * is checked against the requested schema before it is sent (a value that does not fit is not
 * sent: the server gets an error naming the field). Reject to refuse with your message.
 */
export type McpElicitHandler = (request: McpElicitation, context: McpClientRequestContext) => Promise<McpElicitationAnswer>;

/**
 * Answers a server's `sampling/createMessage` with the host's model. Resolve with the message;
 * reject to refuse with your message (it reaches the server as the error's message).
 */
export type McpSamplingHandler = (request: CreateMessageRequestParams, context: McpClientRequestContext) => Promise<CreateMessageResult>;

/** The handlers that decide what a connection declares and how it answers server requests. */
export interface McpClientRequestHandlers {
  sampling?: McpSamplingHandler;
  elicit?: McpElicitHandler;
}

/** What the client declares: `elicitation` (form and URL) with an `elicit` handler, `sampling` with a `sampling` handler, else neither. */
export function clientCapabilitiesOf(handlers: McpClientRequestHandlers): ClientCapabilities {
  return {
    ...(handlers.elicit ? { elicitation: { form: {}, url: {} } } : {}),
    ...(handlers.sampling ? { sampling: {} } : {}),
  };
}

/** The refusal a server gets for sampling when the host gave no handler. */
export const samplingOffMessage = (server: string) =>
  `This workspace does not let MCP servers ask its model to write anything (sampling is turned off here), so the request from "${server}" was not sent to a model.`;

/** The refusal a server gets for elicitation when the host gave no handler. */
export const elicitationOffMessage = (server: string) =>
  `This workspace does not pass questions from MCP servers on to its users (elicitation is turned off here), so the question from "${server}" was not asked.`;

const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/**
 * Registers the connection's answers to server requests on a client that is not connected yet:
 * the host's handlers for what it declared, and a plain-words refusal for the rest (through the
 * client's fallback handler, so a server that asks without the capability hears why).
 * `callOf` finds the call a request belongs to.
 */
export function installClientRequests(
  client: Client,
  server: string,
  handlers: McpClientRequestHandlers,
  callOf: (taskId: string | undefined) => { info: McpCallInfo; signal?: AbortSignal | undefined; hold?: () => () => void } | undefined,
): void {
  /** The handler's context, and a release for the call's wait, which stops while the question is out. */
  const contextOf = (params: { _meta?: Record<string, unknown> } | undefined, requestSignal: AbortSignal = new AbortController().signal) => {
    const related = params?._meta?.[RELATED_TASK] as { taskId?: unknown } | undefined;
    const taskId = typeof related?.taskId === 'string' ? related.taskId : undefined;
    const call = callOf(taskId);
    const signal = call?.signal ? AbortSignal.any([requestSignal, call.signal]) : requestSignal;
    const context: McpClientRequestContext = { server, signal, ...(call ? { call: { ...call.info, ...(taskId ? { taskId } : {}) } } : {}) };
    return { context, release: call?.hold?.() ?? (() => undefined) };
  };
  const { elicit, sampling } = handlers;
  if (elicit) {
    client.setRequestHandler('elicitation/create', async (request, ctx) => {
      const params = request.params as (ElicitRequestFormParams | { mode: 'url'; message: string; url: string; elicitationId: string }) & { _meta?: Record<string, unknown> };
      if (params.mode === 'url') {
        const url = httpsUrl(params.url);
        if (!url) {
          throw new ProtocolError(
            ProtocolErrorCode.InvalidParams,
            `This workspace opens only https:// links without a user name or password in them for MCP servers, so the link from "${server}" was not shown to the user.`,
          );
        }
        const { context, release } = contextOf(params, ctx.mcpReq?.signal);
        try {
          const answer = await elicit({ mode: 'url', message: params.message, url: url.href, host: url.hostname, elicitationId: params.elicitationId }, context);
          return { action: answer.action };
        } finally {
          release();
        }
      }
      const form: McpFormElicitation = { mode: 'form', message: params.message, requestedSchema: params.requestedSchema };
      const { context, release } = contextOf(params, ctx.mcpReq?.signal);
      let answer: McpElicitationAnswer;
      try {
        answer = await elicit(form, context);
      } finally {
        release();
      }
      if (answer.action !== 'accept') return { action: answer.action };
      return { action: 'accept', content: checkedContent(server, form, answer.content ?? {}) };
    });
  }
  if (sampling) {
    client.setRequestHandler('sampling/createMessage', async (request, ctx) => {
      const params = request.params as CreateMessageRequestParams;
      const { context, release } = contextOf(params as { _meta?: Record<string, unknown> }, ctx.mcpReq?.signal);
      try {
        return await sampling(params, context);
      } finally {
        release();
      }
    });
  }
  const previous = client.fallbackRequestHandler;
  client.fallbackRequestHandler = async (request, ctx) => {
    if (request.method === 'sampling/createMessage' && !sampling) throw new ProtocolError(ProtocolErrorCode.MethodNotFound, samplingOffMessage(server));
    if (request.method === 'elicitation/create' && !elicit) throw new ProtocolError(ProtocolErrorCode.MethodNotFound, elicitationOffMessage(server));
    if (previous) return previous(request, ctx);
    throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `Method not found: ${request.method}`);
  };
}

/** The URL when it is a well-formed `https:` URL without credentials (`https://bank.com@evil.example` hides its host), else undefined. */
function httpsUrl(value: unknown): URL | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname && !url.username && !url.password ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Accepted form content checked against the requested schema: every key must be a field the
 * server asked for, required fields present, each value of its type (enums, formats, bounds).
 * A value that does not fit throws an error for the server naming the field, in words.
 */
export function checkedContent(server: string, form: McpFormElicitation, content: Record<string, McpElicitationValue>): Record<string, McpElicitationValue> {
  const properties = (form.requestedSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const refuse = (why: string) =>
    new ProtocolError(ProtocolErrorCode.InvalidParams, `The answer to "${form.message}" was not sent to "${server}": ${why}`);
  for (const key of Object.keys(content)) {
    if (!(key in properties)) throw refuse(`it has a field "${key}" the server did not ask for.`);
  }
  for (const key of form.requestedSchema.required ?? []) {
    if (content[key] === undefined) throw refuse(`"${fieldName(properties[key], key)}" is required.`);
  }
  for (const [key, value] of Object.entries(content)) {
    const schema = fieldSchema(properties[key]!);
    const parsed = schema.safeParse(value);
    if (parsed && !parsed.success) {
      throw refuse(`"${fieldName(properties[key], key)}" does not fit (${parsed.error.issues[0]?.message ?? 'wrong value'}).`);
    }
  }
  return content;
}

const fieldName = (property: Record<string, unknown> | undefined, key: string) => (typeof property?.title === 'string' ? property.title : key);

/** One field's schema as zod, without the keywords zod does not know (e.g. the legacy `enumNames`); its bare type when the rest cannot be read. */
function fieldSchema(property: Record<string, unknown>): z.ZodType {
  const { enumNames: _names, default: _default, ...rest } = property;
  try {
    return z.fromJSONSchema(rest as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    const bare: Record<string, z.ZodType> = { string: z.string(), number: z.number(), integer: z.number().int(), boolean: z.boolean(), array: z.array(z.string()) };
    return bare[String(property.type)] ?? z.unknown();
  }
}
