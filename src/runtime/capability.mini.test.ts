import { describe, expect, it, vi } from 'vitest';
import { z as classic } from 'zod';
import * as z from 'zod/mini';
import { CapabilityDefinitionError, defineCapability, inputKeys } from './capability';
import { textResult } from './results';
import { createEventLog } from './eventLog';
import type { ThreadEvent } from './events';
import { invoke } from './invoke';
import { createRegistry } from './registry';

// A page can define its capabilities with zod/mini (the smaller zod) instead of classic zod:
// same checks, same messages, same JSON Schema for the model and the doors.
const miniRefund = () =>
  defineCapability({
    name: 'payments.refund',
    title: 'Refund',
    description: 'Refunds a payment.',
    kind: 'mutate',
    input: z.object({ payment_id: z.string().check(z.minLength(1)), amount: z.number().check(z.positive()) }),
    handler: ({ payment_id, amount }) => textResult(`Refunded ${amount} on ${payment_id}.`),
  });
const classicRefund = () =>
  defineCapability({
    name: 'payments.refund',
    title: 'Refund',
    description: 'Refunds a payment.',
    kind: 'mutate',
    input: classic.object({ payment_id: classic.string().min(1), amount: classic.number().positive() }),
    handler: ({ payment_id, amount }) => textResult(`Refunded ${amount} on ${payment_id}.`),
  });

async function run(descriptor: ReturnType<typeof miniRefund>, args: unknown) {
  const log = createEventLog({ now: () => 1000 });
  const result = await invoke('payments.refund', args, { registry: createRegistry([descriptor]), emit: log.emit, threadKey: 't1', invocationId: 'inv1' });
  return { result, events: log.since() as ThreadEvent[] };
}

describe('capabilities with zod/mini schemas', () => {
  it('run with good arguments', async () => {
    const { result } = await run(miniRefund(), { payment_id: 'p1', amount: 5 });
    expect(result.isError).toBeFalsy();
    expect(result.content[0]).toMatchObject({ type: 'text', text: 'Refunded 5 on p1.' });
  });

  it('refuse bad arguments with the same words as a classic schema', async () => {
    const args = { payment_id: '', amount: 'ten' };
    const mini = await run(miniRefund(), args);
    const same = await run(classicRefund(), args);
    const error = (events: ThreadEvent[]) => (events[0] as Extract<ThreadEvent, { type: 'capability.error' }>).error;
    expect(error(mini.events).code).toBe('invalid_arguments');
    expect(error(mini.events).message).toMatch(/^Refund was not run: /);
    expect(error(mini.events)).toEqual(error(same.events));
  });

  it('describe the same JSON Schema and input fields as classic ones', () => {
    const [mini] = createRegistry([miniRefund()]).describe();
    const [same] = createRegistry([classicRefund()]).describe();
    expect(mini!.inputSchema).toEqual(same!.inputSchema);
    expect(inputKeys(miniRefund().input)).toEqual(['payment_id', 'amount']);
  });

  it('still refuse an input that is not a zod schema, in words', () => {
    const handler = vi.fn(() => textResult(''));
    expect(() => defineCapability({ name: 'x', title: 'X', description: 'Does x.', input: { a: 1 } as never, handler })).toThrow(
      new CapabilityDefinitionError('Capability "x": input must be a zod schema (e.g. z.object({})).'),
    );
  });
});
