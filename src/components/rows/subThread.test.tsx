import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelDriver } from '../../runtime/model';
import { catalogNode } from '../../runtime/catalogNodes';
import { createLocalWorkspace } from '../../workspace/localWorkspace';
import { ChatSurface } from '../chat-surface/ChatSurface';
import { ThreadSwitcher } from '../slash/ThreadSwitcher';
import { stubTranscriptLayout, type LayoutStub } from '../testing/layout';

let layout: LayoutStub;
beforeEach(() => {
  layout = stubTranscriptLayout();
});
afterEach(() => layout.restore());

const review = catalogNode('Skill/review', {
  nodeType: 'Skill',
  name: '/review',
  description: 'Review in a sub-thread',
  skill: { instructions: 'List what needs attention.', autoMount: true, launchesSubThread: true },
});
const driver: ModelDriver = {
  info: { id: 'scripted', label: 'Scripted' },
  async *respond(request) {
    yield { type: 'text', text: request.skills?.length ? 'Two records need attention.' : 'Parent reply.' };
  },
};

describe('ChatSurface with a sub-thread', () => {
  it('shows the link row, opens the child by its button and comes back; the switcher names the child as a sub-thread', async () => {
    const user = userEvent.setup();
    const workspace = createLocalWorkspace({ capabilities: [], driver, skills: [review] });
    render(<ChatSurface workspace={workspace} threadStorageKey={false} virtualize={false} />);
    await act(() => workspace.send({ threadId: 'main', text: 'the new records', skill: '/review' }));
    const row = await screen.findByRole('article', { name: 'Opened a sub-thread: /review' });
    await waitFor(() => expect(row).toHaveAttribute('data-state', 'done'));
    const summary = screen.getByRole('article', { name: 'The /review sub-thread finished' });
    expect(summary).toHaveTextContent('Two records need attention.');

    const switcher = screen.getByRole('combobox', { name: 'Thread' });
    const options = within(switcher).getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(['/review the new records', '↳ /review the new records (sub-thread of “/review the new records”)']);

    await user.click(within(row).getByRole('button', { name: 'Opened a sub-thread: /review' }));
    const origin = await screen.findByRole('article', { name: 'Sub-thread of “/review the new records”: /review' });
    expect(origin).toHaveAttribute('data-state', 'linked');
    await waitFor(() => expect(screen.getByText('Two records need attention.')).toBeInTheDocument());
    expect((switcher as HTMLSelectElement).value).toMatch(/^main\.sub-/);

    await user.click(within(origin).getByRole('button', { name: 'Back to “/review the new records”' }));
    expect(await screen.findByRole('article', { name: 'Opened a sub-thread: /review' })).toHaveAttribute('data-state', 'done');
    expect((switcher as HTMLSelectElement).value).toBe('main');
  });
});

describe('ThreadSwitcher with sub-threads', () => {
  it('lists each sub-thread right after its parent, named as its sub-thread', () => {
    render(
      <ThreadSwitcher
        threads={['main', 'other', 'main.sub-1']}
        names={{ main: 'Import the CSV', other: 'Count', 'main.sub-1': '/review the records' }}
        parents={{ 'main.sub-1': 'main' }}
        value="main"
        onValueChange={() => undefined}
      />,
    );
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Import the CSV', '↳ /review the records (sub-thread of “Import the CSV”)', 'Count']);
  });
});
