import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../capability';
import { resultText, textResult } from '../results';
import type { ThreadEvent } from '../events';
import { foldAll, initialThreadState, type ElicitationRow } from '../fold';
import { createOfflineDriver } from '../offlineDriver';
import { interruptionEvents } from './derive';
import { ElicitationAnswerError } from './elicitations';
import { NothingWaitingError, createThreadHost, type ThreadHost, type ThreadHostOptions } from './threadHost';

const alice = { user: 'alice', space: 'acme' };
const bob = { user: 'bob', space: 'acme' };
const schema = { type: 'object', properties: { name: { type: 'string', title: 'Name' }, seats: { type: 'integer', title: 'Seats', maximum: 10 } }, required: ['name'] };

/** A capability that asks its thread what an MCP server would, and answers with what it heard. */
function host(options: Partial<ThreadHostOptions> = {}): ThreadHost {
  const ask = defineCapability({
    name: 'crm.open',
    title: 'Open account',
    description: 'Asks who the account is for.',
    input: z.object({}),
    handler: async (_args, ctx) => {
      const answer = await h.elicit(ctx.threadKey, { server: 'crm', tool: 'open', invocationId: ctx.invocationId, mode: 'form', message: 'Who is it for?', requestedSchema: schema }, ctx.signal);
      return textResult(JSON.stringify(answer));
    },
  });
  const h = createThreadHost({ capabilities: [ask], driver: createOfflineDriver({ delayMs: 0 }), alignment: 'loose', idleMs: Infinity, ...options });
  return h;
}

function follow(h: ThreadHost, threadId: string) {
  const events: ThreadEvent[] = [];
  h.subscribe(alice, threadId, (e) => events.push(e));
  const state = () => foldAll(initialThreadState, events);
  const question = async () => {
    for (let i = 0; i < 200; i++) {
      const row = state().rows.find((r): r is ElicitationRow => r.kind === 'elicitation');
      if (row) return row;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error('No question came.');
  };
  return { state, question };
}

describe('ThreadHost.elicit: a running tool asks its thread', () => {
  it('the row names the card; its principal answers; the tool hears the answer', async () => {
    const h = host();
    const thread = follow(h, 't1');
    const run = h.invoke(alice, { threadId: 't1', capability: 'crm.open', args: {} });
    const row = await thread.question();
    const card = thread.state().rows.find((r) => r.kind === 'invocation')!;
    expect(row).toMatchObject({ server: 'crm', tool: 'open', invocation_id: card.id, status: 'pending' });

    // Another user's thread of the same id is not this one: nothing of theirs waits.
    await expect(h.decide(bob, { threadId: 't1', id: row.id, decision: 'answer', answer: '{"name":"Bob"}' })).rejects.toBeInstanceOf(NothingWaitingError);
    // Values that do not fit are refused in words; the question still waits.
    await expect(h.decide(alice, { threadId: 't1', id: row.id, decision: 'answer', answer: '{"seats":11}' })).rejects.toThrow(new ElicitationAnswerError('The answer was not sent: Name is required. Seats must be at most 10.'));
    await expect(h.decide(alice, { threadId: 't1', id: row.id, decision: 'answer', answer: 'Ada' })).rejects.toBeInstanceOf(ElicitationAnswerError);
    await expect(h.decide(alice, { threadId: 't1', id: row.id, decision: 'approve' })).rejects.toThrow('takes answer (the form), deny or dismiss, not "approve"');

    // Two answers at once (a double click): the first is sent, the second finds it answered.
    const [first, second] = await Promise.allSettled([
      h.decide(alice, { threadId: 't1', id: row.id, decision: 'answer', answer: '{"name":"Ada","seats":3}' }),
      h.decide(alice, { threadId: 't1', id: row.id, decision: 'deny' }),
    ]);
    expect(first.status).toBe('fulfilled');
    expect(second).toMatchObject({ status: 'rejected', reason: { message: `The question "${row.id}" was already answered.` } });
    expect(JSON.parse(resultText(await run))).toEqual({ action: 'accept', content: { name: 'Ada', seats: 3 } });
    expect(thread.state().rows.find((r) => r.kind === 'elicitation')).toMatchObject({ status: 'accepted', content: { name: 'Ada', seats: 3 } });
  });

  it('a question nobody answers in time is closed as timed out, and the tool hears cancel', async () => {
    const h = host({ elicitationWaitMs: 30 });
    const thread = follow(h, 't2');
    const result = await h.invoke(alice, { threadId: 't2', capability: 'crm.open', args: {} });
    expect(JSON.parse(resultText(result))).toEqual({ action: 'cancel' });
    expect(thread.state().rows.find((r) => r.kind === 'elicitation')).toMatchObject({ status: 'closed', closed: 'timed_out' });
  });

  it('a question from a call outside any thread is refused in words', async () => {
    const h = host();
    await expect(h.elicit('rest:alice', { server: 'crm', mode: 'form', message: 'Who?' }, new AbortController().signal)).rejects.toThrow(
      '"crm" asked a question during a call made through the rest door, outside any chat, so nobody here can answer it.',
    );
  });

  it('after a crash a pending question is closed as interrupted', () => {
    const state = foldAll(initialThreadState, [{ type: 'elicitation.requested', elicitation_id: 'e1', server: 'crm', mode: 'url', message: 'Sign in.', url: 'https://a.example/x', host: 'a.example', seq: 1, ts: 1 }]);
    expect(interruptionEvents(state)).toEqual([{ type: 'elicitation.answered', elicitation_id: 'e1', action: 'cancel', closed: 'interrupted' }]);
  });
});
