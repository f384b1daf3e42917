import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../capability';
import { textResult } from '../results';
import type { ThreadEvent } from '../events';
import { createOfflineDriver } from '../offlineDriver';
import { createRegistry } from '../registry';
import { createThreadHost } from './threadHost';
import { overlayRegistry } from './overlay';

const verb = (name: string, title: string, text: string, kind: 'read' | 'mutate' = 'read') =>
  defineCapability({ name, title, description: `${title}.`, kind, input: z.object({}), handler: async () => textResult(text) });

describe('overlayRegistry', () => {
  it('merges the shared and the principal\'s capabilities by name, the shared one winning a clash', () => {
    const base = createRegistry([verb('records.list', 'List records', 'shared'), verb('b.x', 'Shared x', 'shared x')]);
    const own = createRegistry([verb('notes.count', 'Count notes', 'mine'), verb('b.x', 'My x', 'my x')]);
    const merged = overlayRegistry(base, own);
    expect(merged.list().map((d) => d.name)).toEqual(['b.x', 'notes.count', 'records.list']);
    expect(merged.describe().map((c) => c.title)).toEqual(['Shared x', 'Count notes', 'List records']);
    expect(merged.get('b.x')!.title).toBe('Shared x');
    expect(overlayRegistry(base, own)).toBe(merged);
    expect(() => merged.register(verb('c.y', 'Y', 'y'))).toThrow('read-only');
  });
});

describe('createThreadHost({ capabilitiesOf })', () => {
  it("offers a principal's own capabilities in that principal's threads only, from the next turn after they change", async () => {
    let alices = createRegistry([verb('notes.count', 'Count notes', '7 notes')]);
    const host = createThreadHost({
      capabilities: [verb('records.list', 'List records', '3 records')],
      driver: createOfflineDriver({ delayMs: 0 }),
      capabilitiesOf: (p) => (p.user === 'alice' ? alices : undefined),
    });
    const events: Record<string, ThreadEvent[]> = { alice: [], bob: [] };
    host.subscribe({ user: 'alice' }, 't', (e) => events.alice!.push(e));
    host.subscribe({ user: 'bob' }, 't', (e) => events.bob!.push(e));
    /** Capabilities that ran to the end in the user's thread. */
    const ran = (user: string) => {
      const log = events[user]!;
      const done = new Set(log.flatMap((e) => (e.type === 'capability.done' ? [e.invocation_id] : [])));
      return log.flatMap((e) => (e.type === 'capability.started' && done.has(e.invocation_id) ? [e.capability] : []));
    };

    await host.send({ user: 'alice' }, { threadId: 't', text: 'count notes' });
    await host.send({ user: 'bob' }, { threadId: 't', text: 'count notes' });
    expect(ran('alice')).toEqual(['notes.count']);
    expect(ran('bob')).toEqual([]);
    // A chip (direct invoke) finds it too, for alice only.
    await host.invoke({ user: 'alice' }, { threadId: 't', capability: 'notes.count', args: {} });
    await expect(host.invoke({ user: 'bob' }, { threadId: 't', capability: 'notes.count', args: {} })).resolves.toMatchObject({ isError: true });
    expect(ran('alice')).toEqual(['notes.count', 'notes.count']);

    alices = createRegistry();
    await host.send({ user: 'alice' }, { threadId: 't', text: 'count notes' });
    expect(ran('alice')).toEqual(['notes.count', 'notes.count']);
    await host.close();
  });
});
