import { describe, expect, it } from 'vitest';
import { createEventLog } from '../eventLog';
import { textResult } from '../envelope';
import { createThreadContext } from './context';
import { historyFromEvents } from './replay';

describe('createThreadContext', () => {
  it('follows the view, the composer, the last capability and the active skills', () => {
    const log = createEventLog();
    const context = createThreadContext();
    log.subscribe(context.observe);
    log.emit({ type: 'view.changed', view: { kind: 'record_list' } });
    log.emit({ type: 'composer.changed', composer: { modelName: 'claude-opus-4-8' } });
    log.emit({ type: 'composer.changed', composer: { agentName: 'Ada' } });
    log.emit({ type: 'capability.started', invocation_id: 'i1', capability: 'records.list', title: 'List records', args: {} });
    log.emit({ type: 'capability.done', invocation_id: 'i1', result: textResult('3 records') });
    log.emit({ type: 'capability.started', invocation_id: 'i2', capability: 'records.delete', title: 'Delete', args: {} });
    log.emit({ type: 'capability.done', invocation_id: 'i2', result: { content: [], isError: true } });
    log.emit({ type: 'skill.activated', skill: 'crawl-plan', title: 'Crawl plan' });
    log.emit({ type: 'skill.activated', skill: 'crawl-plan', title: 'Crawl plan' });
    expect(context.view).toEqual({ kind: 'record_list' });
    expect(context.composer).toEqual({ modelName: 'claude-opus-4-8', agentName: 'Ada' });
    expect(context.lastCapability).toBe('records.list');
    expect(context.activeSkills).toEqual(['crawl-plan']);
  });

  it('hands each violation to the model once: by invocation, or all that are left', () => {
    const log = createEventLog();
    const context = createThreadContext();
    log.subscribe(context.observe);
    log.emit({ type: 'capability.started', invocation_id: 'i1', capability: 'records.import_csv', title: 'Import CSV', args: {} });
    log.emit({ type: 'capability.quality_violation', invocation_id: 'i1', postcondition: 'row_count_change', expected: 'records +3', actual: 'records +0', message: 'No rows.' });
    log.emit({ type: 'capability.quality_violation', invocation_id: 'i9', postcondition: 'exit_code', expected: 'exit code 0', actual: 'exit code 2', message: 'Failed.' });
    expect(context.takeViolations('i1')).toEqual([
      { invocation_id: 'i1', capability: 'records.import_csv', title: 'Import CSV', postcondition: 'row_count_change', expected: 'records +3', actual: 'records +0', message: 'No rows.' },
    ]);
    expect(context.takeViolations().map((v) => [v.invocation_id, v.title])).toEqual([['i9', 'A capability']]);
    expect(context.takeViolations()).toEqual([]);
  });
});

describe('historyFromEvents', () => {
  it('rebuilds the words and the runs of a thread, in order, for a restored thread', () => {
    const log = createEventLog();
    log.emit({ type: 'message.created', message_id: 'u1', role: 'user', text: 'count them' });
    log.emit({ type: 'message.created', message_id: 'a1', role: 'assistant', text: '' });
    log.emit({ type: 'message.delta', message_id: 'a1', delta: 'Let me ' });
    log.emit({ type: 'capability.started', invocation_id: 'i1', capability: 'records.count', title: 'Count records', args: {} });
    log.emit({ type: 'message.delta', message_id: 'a1', delta: 'check.' });
    log.emit({ type: 'capability.done', invocation_id: 'i1', result: textResult('42') });
    log.emit({ type: 'capability.started', invocation_id: 'i2', capability: 'records.wipe', title: 'Wipe', args: { all: true } });
    log.emit({ type: 'capability.error', invocation_id: 'i2', capability: 'records.wipe', error: { code: 'cancelled', message: 'Wipe was cancelled.' }, recoverable: true });
    log.emit({ type: 'message.created', message_id: 'a2', role: 'assistant', text: '' });
    expect(historyFromEvents(log.since(0))).toEqual([
      { role: 'user', text: 'count them' },
      { role: 'assistant', text: 'Let me check.' },
      { role: 'tool', capability: 'records.count', title: 'Count records', args: {}, result: textResult('42') },
      { role: 'tool', capability: 'records.wipe', title: 'Wipe', args: { all: true }, result: { content: [{ type: 'text', text: 'Wipe was cancelled.' }], isError: true } },
    ]);
  });
});
