import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { defineCapability } from '../capability';
import { textResult } from '../results';
import type { ThreadEvent } from '../events';
import { foldAll, initialThreadState } from '../fold';
import { createOfflineDriver } from '../offlineDriver';
import { staticClosure } from '../../test/staticImports';

// The turn loop, the capability runner and the postcondition checks load on the host's first
// send, call or decision (`./turnParts`), so a local-workspace page that shows the chat but has
// not run anything does not ship them. This walks the static imports (not `import()`), as a bundler does.
const here = dirname(fileURLToPath(import.meta.url));
const runtime = resolve(here, '..');

const add = defineCapability({
  name: 'math.add',
  title: 'Add numbers',
  description: 'Adds a and b.',
  input: z.object({ a: z.number(), b: z.number() }),
  handler: ({ a, b }) => textResult(`The sum is ${a + b}.`, { sum: a + b }),
});

describe('the turn parts load on first use', () => {
  it('are not among the static imports of the local workspace', () => {
    const closure = [...staticClosure(resolve(runtime, '../workspace/localWorkspace.ts'))];
    expect(closure).toContain(resolve(here, 'threadHost.ts'));
    for (const lazy of ['turn.ts', 'invoke.ts', 'engine/loop.ts', 'engine/alignment.ts', 'postconditionChecks.ts', 'host/harnessTurn.ts', 'host/turnParts.ts']) {
      expect(closure, lazy).not.toContain(resolve(runtime, lazy));
    }
    expect(readFileSync(resolve(here, 'threadHost.ts'), 'utf8')).toMatch(/import\('\.\/turnParts'\)/);
  });

  it('carry the chat door and the executor the page runs its calls through', () => {
    const closure = [...staticClosure(resolve(runtime, '../workspace/localWorkspace.ts'))];
    for (const lazy of ['host/chatCalls.ts', 'doors/door.ts', 'doors/executor.ts', 'doors/awaitJob.ts']) {
      expect(closure, lazy).not.toContain(resolve(runtime, lazy));
    }
    expect(staticClosure(resolve(here, 'turnParts.ts'))).toContain(resolve(runtime, 'doors/executor.ts'));
    expect(readFileSync(resolve(runtime, '../workspace/localWorkspace.ts'), 'utf8')).toMatch(/import\('\.\.\/runtime\/host\/turnParts'\)/);
  });

  describe('on a fresh host', () => {
    afterEach(() => {
      vi.doUnmock('./turnParts');
      vi.resetModules();
    });

    it('runs the first send in full: the user sees their message, the call and the reply', async () => {
      vi.resetModules();
      const { createThreadHost } = await import('./threadHost');
      const host = createThreadHost({ capabilities: [add], driver: createOfflineDriver({ delayMs: 0 }), idleMs: Infinity });
      const me = { user: 'me' };
      const events: ThreadEvent[] = [];
      host.subscribe(me, 't1', (e) => events.push(e));
      await host.send(me, { threadId: 't1', text: 'add numbers a=2 b=3' });
      const rows = foldAll(initialThreadState, events).rows;
      expect(rows.map((r) => r.kind)).toEqual(['user', 'invocation', 'assistant']);
      expect(rows[0]!.kind === 'user' && rows[0]!.text).toBe('add numbers a=2 b=3');
      expect(rows[2]!.kind === 'assistant' && rows[2]!.text).toBe('The sum is 5.');
    });

    it('runs a chip as the very first action, before any turn', async () => {
      vi.resetModules();
      const { createThreadHost } = await import('./threadHost');
      const host = createThreadHost({ capabilities: [add], idleMs: Infinity });
      const result = await host.invoke({ user: 'me' }, { threadId: 't1', capability: 'math.add', args: { a: 4, b: 5 } });
      expect(result.structuredContent).toEqual({ sum: 9 });
    });

    it('says in plain words when the turn code cannot be loaded, and loads it on the next send', async () => {
      vi.resetModules();
      vi.doMock('./turnParts', () => {
        throw new Error('chunk turnParts-1.js: 404');
      });
      const { createThreadHost } = await import('./threadHost');
      const host = createThreadHost({ capabilities: [add], driver: createOfflineDriver({ delayMs: 0 }), idleMs: Infinity });
      const me = { user: 'me' };
      const events: ThreadEvent[] = [];
      host.subscribe(me, 't1', (e) => events.push(e));
      await expect(host.send(me, { threadId: 't1', text: 'add numbers a=2 b=3' })).rejects.toThrow(
        /^The chat could not load its turn code \(.+\)\. Reload the page to try again\.$/,
      );
      vi.doUnmock('./turnParts');
      await host.send(me, { threadId: 't1', text: 'add numbers a=2 b=3' });
      const rows = foldAll(initialThreadState, events).rows;
      expect(rows.map((r) => r.kind)).toEqual(['user', 'invocation', 'assistant']);
    });
  });
});
