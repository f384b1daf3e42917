import type { Message } from '@ag-ui/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../runtime/capability';
import { textResult } from '../runtime/results';
import { foldAll, initialThreadState } from '../runtime/fold';
import { createRegistry } from '../runtime/registry';
import { closeOpenCalls, openCall } from './agUiCalls';
import { contentText, showSnapshot } from './agUiMessages';
import { newAgUiThread } from './agUiThread';

const driver = { id: 'ag-ui', label: 'AG-UI agent' };
function thread() {
  const t = newAgUiThread();
  const ctx = { t, turnId: 'turn-1', driver, registry: createRegistry([]) };
  return { t, ctx, rows: () => foldAll(initialThreadState, [...t.log.since(0)]).rows };
}

describe('a MESSAGES_SNAPSHOT as rows', () => {
  it('shows user and agent messages and tool results; developer, system and activity messages are not rows', () => {
    const { ctx, rows } = thread();
    const messages = [
      { id: 'd', role: 'developer', content: 'Be terse.' },
      { id: 's', role: 'system', content: 'You are an agent.' },
      { id: 'u', role: 'user', content: [{ type: 'text', text: 'Look at' }, { type: 'image', source: { type: 'url', value: 'https://example.com/x.png' } }, { type: 'text', text: 'this.' }] },
      { id: 'a', role: 'assistant', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'img.describe', arguments: '{"url":"x"}' } }] },
      { id: 't', role: 'tool', toolCallId: 'c1', content: '', error: 'The image could not be read.' },
      { id: 'act', role: 'activity', activityType: 'plan', content: { steps: [] } },
      { id: 'a2', role: 'assistant', content: 'I could not read it.' },
    ] as Message[];
    showSnapshot(ctx, messages);
    const shown = rows();
    expect(shown.map((r) => r.kind)).toEqual(['user', 'invocation', 'assistant']);
    expect(shown[0]).toMatchObject({ text: 'Look at\nthis.' });
    // The assistant message with only a tool call is its card, not an empty reply.
    expect(shown[1]).toMatchObject({ capability: 'img.describe', args: { url: 'x' }, state: 'failed', error: { code: 'tool_error', message: 'The image could not be read.' } });
    // The same snapshot again adds nothing.
    showSnapshot(ctx, messages);
    expect(rows()).toHaveLength(3);
  });

  it('reads text out of any content', () => {
    expect(contentText('plain')).toBe('plain');
    expect(contentText([{ type: 'text', text: 'a' }, { type: 'audio' }, { type: 'text', text: 'b' }])).toBe('a\nb');
    expect(contentText(undefined)).toBe('');
  });
});

describe('calls left open when a run ends', () => {
  it('ends each once, in words by how the run ended; a frontend tool’s call is not the round’s to close', () => {
    const { t, ctx, rows } = thread();
    openCall(ctx, 'c1', 'docs.lookup');
    closeOpenCalls(t, 'cancelled');
    expect(rows()[0]).toMatchObject({ state: 'cancelled', error: { code: 'cancelled', message: 'The run was stopped before this call returned a result.' } });
    closeOpenCalls(t, 'finished');
    expect(t.log.since(0).filter((e) => e.type === 'capability.done' || e.type === 'capability.error')).toHaveLength(1);
    const addNote = defineCapability({ name: 'notes.add', title: 'Add note', description: 'Saves a note.', input: z.object({}), handler: () => textResult('Saved.') });
    const withTool = { ...ctx, registry: createRegistry([addNote]) };
    openCall(withTool, 'c2', 'notes.add');
    expect(t.open.has('c2')).toBe(false);
  });
});
