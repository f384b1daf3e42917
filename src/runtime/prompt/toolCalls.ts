import { CONTROL, type DriverChunk, type QuestionOption } from '../model';

/**
 * A model's tool call as the engine's intent, for every driver (the Messages API's `tool_use`,
 * Chat Completions' `tool_calls`): the engine's three control tools (propose, ask, standing
 * request) by their fields, any other name a capability to invoke. `toolNames` maps the names a
 * model sees (tool names cannot hold every character a capability's name can) back to them.
 * @example
 * toolCallChunk('call_1', 'records.count', {}, new Map()); // { type: 'invoke', capability: 'records.count', args: {}, call_id: 'call_1' }
 */
export function toolCallChunk(id: string, name: string, input: Record<string, unknown>, toolNames: ReadonlyMap<string, string>): DriverChunk {
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  switch (name) {
    case CONTROL.propose: {
      const capability = str(input.capability);
      const reason = str(input.reason);
      return { type: 'propose', capability: toolNames.get(capability) ?? capability, args: input.arguments ?? {}, ...(reason ? { reason } : {}), call_id: id };
    }
    case CONTROL.ask:
      return { type: 'ask', question: str(input.question), options: questionOptions(input.options), call_id: id };
    case CONTROL.standing: {
      const cadence = str(input.cadence);
      return { type: 'standing', text: str(input.request), ...(cadence ? { cadence } : {}), call_id: id };
    }
    default:
      return { type: 'invoke', capability: name, args: input, call_id: id };
  }
}

/** A question's quick answers as a model wrote them: strings, or `{ label, value? }`; anything else left out. */
export function questionOptions(value: unknown): QuestionOption[] {
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

/** A tool call's streamed JSON as its input object; `null` when it is cut or not an object (the call is then dropped). */
export function parseToolInput(json: string): Record<string, unknown> | null {
  if (!json.trim()) return {};
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
