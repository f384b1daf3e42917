import type { CapabilityResult } from '../envelope';
import { errorResult } from '../envelope';
import type { ThreadEvent } from '../events';
import type { ModelMessage } from '../model';
import { readSkillDirective } from './skillDirective';

/**
 * The conversation a model should see, rebuilt from a thread's events (a
 * thread restored from a persisted log). User and assistant words come back
 * as they were; each finished invocation comes back as a note of what ran and
 * what it returned. Tool-call ids are not in the events, so calls are notes.
 * @example
 * history = historyFromEvents(log.since(0));
 */
export function historyFromEvents(events: Iterable<ThreadEvent>): ModelMessage[] {
  const out: ModelMessage[] = [];
  const assistant = new Map<string, { index: number; text: string }>();
  const started = new Map<string, { capability: string; title: string; args: unknown }>();
  for (const e of events) {
    switch (e.type) {
      case 'message.created':
        // A message sent with a load-skill directive reached the model as its task alone.
        if (e.role === 'user') out.push({ role: 'user', text: readSkillDirective(e.text)?.task ?? e.text });
        else if (!assistant.has(e.message_id)) {
          assistant.set(e.message_id, { index: out.length, text: e.text });
          out.push({ role: 'assistant', text: e.text });
        }
        break;
      case 'message.delta': {
        const m = assistant.get(e.message_id);
        if (m) {
          m.text += e.delta;
          out[m.index] = { role: 'assistant', text: m.text };
        }
        break;
      }
      case 'capability.started':
        started.set(e.invocation_id, { capability: e.capability, title: e.title, args: e.args });
        break;
      case 'capability.done':
      case 'capability.error': {
        const s = started.get(e.invocation_id);
        if (!s) break;
        const result: CapabilityResult = e.type === 'capability.done' ? e.result : (e.result ?? errorResult(e.error.message));
        out.push({ role: 'tool', capability: s.capability, title: s.title, args: s.args, result });
        started.delete(e.invocation_id);
        break;
      }
      default:
        break;
    }
  }
  return out.filter((m) => m.role !== 'assistant' || m.text !== '');
}
