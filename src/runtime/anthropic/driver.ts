import Anthropic from '@anthropic-ai/sdk';
import type { Usage } from '../events';
import { CONTROL, type DriverChunk, type ModelDriver, type ModelRequest, type QuestionOption } from '../model';
import { toModelError } from './errors';
import { buildAnthropicRequest, DEFAULT_ANTHROPIC_MODEL } from './request';

export interface AnthropicDriverOptions {
  /** The API key. Read on the server only. @default the SDK reads `ANTHROPIC_API_KEY` */
  apiKey?: string;
  /** @default `ANTHROPIC_BASE_URL`, else https://api.anthropic.com */
  baseURL?: string;
  /** Used when the composer has no model selection. @default 'claude-sonnet-5-5' */
  model?: string;
  /** @default 2048 */
  maxTokens?: number;
  /** The SDK's retries of 408, 409, 429 and 5xx (529 included), with backoff. @default 2 */
  maxRetries?: number;
  /** Per-request timeout in ms. @default the SDK's 10 minutes */
  timeoutMs?: number;
  /** A ready client (a proxy, custom fetch); the options above are then ignored. */
  client?: Anthropic;
  /** Shown on the surface. @default 'Claude' */
  label?: string;
}

/**
 * Claude through `@anthropic-ai/sdk`: streamed text becomes `message.delta`
 * events, tool use goes through the registry, the AbortSignal of the turn
 * closes the connection, and 401/429/529/unreachable become clear rows.
 * Runs on the server: the SDK refuses to run in a browser, so the key never
 * reaches one.
 * @example
 * const driver = createAnthropicDriver({ model: 'claude-sonnet-5-5' });
 * createLocalWorkspace({ capabilities, driver });
 */
export function createAnthropicDriver(options: AnthropicDriverOptions = {}): ModelDriver {
  const client =
    options.client ??
    new Anthropic({
      ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
      ...(options.baseURL !== undefined ? { baseURL: options.baseURL } : {}),
      ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
      ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
    });
  const model = options.model ?? DEFAULT_ANTHROPIC_MODEL;
  return {
    info: { id: 'anthropic', label: options.label ?? 'Claude' },
    async *respond(request: ModelRequest): AsyncIterable<DriverChunk> {
      const { body, toolNames } = buildAnthropicRequest(request, { model, ...(options.maxTokens ? { maxTokens: options.maxTokens } : {}) });
      const context = { model: body.model, baseURL: client.baseURL };
      const tools = new Map<number, { id: string; name: string; json: string }>();
      const usage: Usage = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
      let stopReason: string | null = null;
      let wrote = false;
      try {
        const stream = await client.messages.create(body as unknown as Anthropic.MessageCreateParamsStreaming, { signal: request.signal });
        for await (const event of stream) {
          switch (event.type) {
            case 'message_start':
              mergeUsage(usage, event.message.usage);
              break;
            case 'content_block_start':
              if (event.content_block.type === 'tool_use') {
                tools.set(event.index, { id: event.content_block.id, name: event.content_block.name, json: '' });
              }
              break;
            case 'content_block_delta':
              if (event.delta.type === 'text_delta') {
                wrote = true;
                yield { type: 'text', text: event.delta.text };
              }
              else if (event.delta.type === 'input_json_delta') {
                const tool = tools.get(event.index);
                if (tool) tool.json += event.delta.partial_json;
              }
              break;
            case 'message_delta':
              mergeUsage(usage, event.usage);
              stopReason = event.delta.stop_reason ?? stopReason;
              break;
            default:
              break;
          }
        }
      } catch (error) {
        throw toModelError(error, context);
      }
      yield { type: 'usage', usage };
      if (stopReason === 'max_tokens' && tools.size === 0) yield { type: 'text', text: ' … (cut off: the reply reached its length limit)' };
      if (stopReason === 'refusal' && !wrote && tools.size === 0) yield { type: 'text', text: 'Claude declined to answer this request.' };
      for (const [, tool] of [...tools].sort(([a], [b]) => a - b)) {
        yield toChunk(tool.id, toolNames.get(tool.name) ?? tool.name, parseInput(tool.json), toolNames);
      }
    },
  };
}

/** A tool call as the engine's intent. */
function toChunk(id: string, name: string, input: unknown, toolNames: ReadonlyMap<string, string>): DriverChunk {
  const fields = input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  switch (name) {
    case CONTROL.propose: {
      const capability = str(fields.capability);
      const reason = str(fields.reason);
      return { type: 'propose', capability: toolNames.get(capability) ?? capability, args: fields.arguments ?? {}, ...(reason ? { reason } : {}), call_id: id };
    }
    case CONTROL.ask:
      return { type: 'ask', question: str(fields.question), options: options(fields.options), call_id: id };
    case CONTROL.standing: {
      const cadence = str(fields.cadence);
      return { type: 'standing', text: str(fields.request), ...(cadence ? { cadence } : {}), call_id: id };
    }
    default:
      return { type: 'invoke', capability: name, args: input, call_id: id };
  }
}

function options(value: unknown): QuestionOption[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((o) => {
    if (typeof o === 'string') return [{ label: o, value: o }];
    if (o && typeof o === 'object' && typeof (o as QuestionOption).label === 'string') {
      const { label, value: v } = o as QuestionOption;
      return [{ label, value: typeof v === 'string' ? v : label }];
    }
    return [];
  });
}

/** The streamed JSON of a tool call; text that is not JSON goes on as a string, which the input schema rejects with a clear error. */
function parseInput(json: string): unknown {
  if (!json.trim()) return {};
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

function mergeUsage(into: Usage, from: { input_tokens?: number | null; output_tokens?: number | null; cache_creation_input_tokens?: number | null; cache_read_input_tokens?: number | null }): void {
  if (typeof from.input_tokens === 'number') into.input_tokens = from.input_tokens;
  if (typeof from.output_tokens === 'number') into.output_tokens = from.output_tokens;
  if (typeof from.cache_creation_input_tokens === 'number') into.cache_creation_input_tokens = from.cache_creation_input_tokens;
  if (typeof from.cache_read_input_tokens === 'number') into.cache_read_input_tokens = from.cache_read_input_tokens;
}
