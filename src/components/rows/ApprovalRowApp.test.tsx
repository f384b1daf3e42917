import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ThreadEventInput } from '../../runtime/events';
import { ChatSurface } from '../chat-surface/ChatSurface';
import { stubTranscriptLayout, type LayoutStub } from '../testing/layout';
import { scriptedWorkspace } from '../testing/scriptedWorkspace';

let layout: LayoutStub;
beforeEach(() => {
  layout = stubTranscriptLayout();
});
afterEach(() => layout.restore());

const asked = (id: string): ThreadEventInput => ({ type: 'approval.requested', approval_id: id, capability: 'monitor.poll-system-stats', title: 'Poll System Stats', args: {}, reason: 'The app asks.' });

async function show(events: ThreadEventInput[]) {
  const workspace = scriptedWorkspace({ capabilities: [] });
  await act(async () => void render(<ChatSurface workspace={workspace} />));
  await act(async () => {
    for (const event of events) workspace.log.emit(event);
  });
  return screen.findByRole('article', { name: /Poll System Stats/ });
}

describe('an MCP App’s approval row (once per app session)', () => {
  it('approved, says the app’s calls run inside its card, not that a run is going on', async () => {
    const row = await show([asked('appapproval_abc123'), { type: 'approval.resolved', approval_id: 'appapproval_abc123', decision: 'approved' }]);
    expect(row).toHaveAttribute('data-state', 'approved');
    expect(row).toHaveTextContent('Approved for this app until it is closed: its calls run inside its card.');
    expect(row).not.toHaveTextContent('Approved: it is running.');
  });

  it('a chip’s approval row keeps its own words', async () => {
    const row = await show([asked('approval_abc123'), { type: 'approval.resolved', approval_id: 'approval_abc123', decision: 'approved' }]);
    expect(row).toHaveTextContent('Approved: it is running.');
  });
});
