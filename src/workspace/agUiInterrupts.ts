import type { Interrupt, ResumeEntry } from '@ag-ui/core';
import { parseArgs, type AgUiThread } from './agUiThread';
import type { DecisionRequest } from './types';

/** An interrupt as a row that waits: an approval for a tool call, else a question. */
export function waitOn(t: AgUiThread, turnId: string, interrupt: Interrupt, titleOf: (name: string) => string): void {
  const call = interrupt.toolCallId ? t.calls.get(interrupt.toolCallId) : undefined;
  const reason = interrupt.message ?? interrupt.reason;
  if (call) {
    t.interrupts.set(interrupt.id, { ...interrupt, kind: 'approval' });
    t.log.emit({ type: 'approval.requested', approval_id: interrupt.id, capability: call.name, title: titleOf(call.name), args: parseArgs(call.args), turn_id: turnId, call_id: interrupt.toolCallId!, reason });
    return;
  }
  t.interrupts.set(interrupt.id, { ...interrupt, kind: 'question' });
  const choices = (interrupt.responseSchema?.enum as unknown[] | undefined)?.filter((v): v is string => typeof v === 'string') ?? [];
  t.log.emit({ type: 'clarify.requested', question_id: interrupt.id, turn_id: turnId, question: reason, options: choices.map((value) => ({ label: value, value })) });
}

/**
 * The user's answer to a pending interrupt: its row resolved, and the entry the
 * run resumes with; null when there is no such interrupt (already answered).
 */
export function answerInterrupt(t: AgUiThread, request: DecisionRequest): ResumeEntry | null {
  const interrupt = t.interrupts.get(request.id);
  if (!interrupt) return null;
  t.interrupts.delete(request.id);
  if (interrupt.kind === 'approval') {
    const approved = request.decision === 'approve';
    t.log.emit({ type: 'approval.resolved', approval_id: request.id, decision: approved ? 'approved' : 'denied' });
    return approved ? { interruptId: request.id, status: 'resolved', payload: { approved: true } } : { interruptId: request.id, status: 'cancelled' };
  }
  const answer = request.answer ?? '';
  t.log.emit({ type: 'clarify.answered', question_id: request.id, answer });
  return request.decision === 'dismiss' ? { interruptId: request.id, status: 'cancelled' } : { interruptId: request.id, status: 'resolved', payload: { answer } };
}
