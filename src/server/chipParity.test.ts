import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { CapabilityFailure, defineCapability } from '../runtime/capability';
import { textResult } from '../runtime/results';
import type { ThreadEvent } from '../runtime/events';
import { createLocalWorkspace } from '../workspace/localWorkspace';
import { createRemoteWorkspace, type RemoteWorkspace } from '../workspace/remoteWorkspace';
import type { WorkspaceAdapter } from '../workspace/types';
import { createWorkspaceServer, type WorkspaceServer } from './createWorkspaceServer';

// The same chip in the page (`createLocalWorkspace`) and on a server (`createWorkspaceServer`,
// through the remote workspace) goes through the same chat door and executor, so it writes the
// same event types in the same order: the queued job, the run, its end, the tool message.

const report = defineCapability({
  name: 'report.build',
  title: 'Build report',
  description: 'Builds a report section by section.',
  input: z.object({ sections: z.number().int().min(1).max(5) }),
  handler: async ({ sections }, ctx) => {
    for (let i = 1; i <= sections; i++) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      ctx.progress(i, sections, `Section ${i}`);
    }
    return textResult(`Built ${sections} sections.`, { sections });
  },
});

const broken = defineCapability({
  name: 'report.broken',
  title: 'Broken report',
  description: 'Always fails.',
  input: z.object({}),
  handler: () => {
    throw new CapabilityFailure('no_data', 'There is no data for this report.');
  },
});

const remove = defineCapability({
  name: 'report.delete',
  title: 'Delete report',
  description: 'Deletes the report.',
  kind: 'mutate',
  input: z.object({}),
  handler: async () => textResult('Deleted the report.', { deleted: true }),
});

const capabilities = [report, broken, remove];

let server: WorkspaceServer | null = null;
let remote: RemoteWorkspace | null = null;

afterEach(async () => {
  remote?.close();
  remote = null;
  await server?.close();
  server = null;
});

/** Runs the chips on a fresh thread of `workspace` and gives the types of the events it wrote, once the last has arrived. */
async function chipTypes(workspace: WorkspaceAdapter, threadId: string, last: number | null): Promise<string[]> {
  const events: ThreadEvent[] = [];
  workspace.subscribe(threadId, (e) => events.push(e));
  await workspace.invoke({ threadId, capability: 'report.build', args: { sections: 2 } });
  await workspace.invoke({ threadId, capability: 'report.build', args: { sections: 'two' } });
  await workspace.invoke({ threadId, capability: 'report.broken', args: {} });
  await workspace.invoke({ threadId, capability: 'report.delete', args: {} });
  const approval = await vi.waitFor(() => {
    const requested = events.find((e): e is Extract<ThreadEvent, { type: 'approval.requested' }> => e.type === 'approval.requested');
    // The user is asked to approve the delete, and nothing else.
    expect(requested?.capability).toBe('report.delete');
    return requested!;
  });
  await workspace.decide({ threadId, id: approval.approval_id, decision: 'approve' });
  // Over the network the events may still be on their way when the call has answered.
  if (last !== null) await vi.waitFor(() => expect(events.length).toBeGreaterThanOrEqual(last));
  return events.map((e) => e.type);
}

describe('the same chip in the page and on the server', () => {
  it('writes the same event types in the same order', async () => {
    const page = await chipTypes(createLocalWorkspace({ capabilities }), 'chips', null);

    server = await createWorkspaceServer({ capabilities, database: ':memory:' });
    const { url } = await server.listen();
    remote = await createRemoteWorkspace({ url });
    const served = await chipTypes(remote, 'chips', page.length);

    expect(served).toEqual(page);
    // What both write, spelled out: a chip's job is queued before it runs, on both.
    expect(page).toEqual([
      'capability.queued',
      'capability.started',
      'capability.progress',
      'capability.progress',
      'capability.done',
      'model.message',
      'capability.error',
      'model.message',
      'capability.queued',
      'capability.started',
      'capability.error',
      'model.message',
      'approval.requested',
      'approval.resolved',
      'capability.queued',
      'capability.started',
      'capability.done',
      'model.message',
    ]);
  });
});
