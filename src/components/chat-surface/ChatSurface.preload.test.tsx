import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLocalWorkspace } from '../../workspace/localWorkspace';
import { stubTranscriptLayout, type LayoutStub } from '../testing/layout';

// Counts the surface's requests for the turn rows' chunk (the chunk itself still loads on first use).
const preload = vi.hoisted(() => vi.fn<() => Promise<unknown>>(() => Promise.resolve()));
vi.mock('../rows/deferredRows', async (original) => ({ ...(await original<typeof import('../rows/deferredRows')>()), preloadTurnRows: preload }));

const { ChatSurface } = await import('./ChatSurface');

let layout: LayoutStub;
beforeEach(() => {
  layout = stubTranscriptLayout();
});
afterEach(() => layout.restore());

/** Longer than `whenIdle`'s fallback where the test DOM has no requestIdleCallback (50 ms). */
const idle = () => new Promise((resolve) => setTimeout(resolve, 120));

describe('<ChatSurface> fetching the rows a turn adds', () => {
  it('fetches them once the user is in the surface, not when the thread gets a message; a failed fetch is asked again on the next focus', async () => {
    const workspace = createLocalWorkspace({ capabilities: [] });
    await workspace.send({ threadId: 'main', text: 'hello there' });
    render(<ChatSurface workspace={workspace} theme="light" />);
    await screen.findByText('hello there');
    await idle();
    expect(preload).not.toHaveBeenCalled();

    preload.mockImplementationOnce(() => Promise.reject(new Error('offline')));
    const input = screen.getByRole('textbox', { name: 'Message' });
    input.focus();
    await waitFor(() => expect(preload).toHaveBeenCalledTimes(1));
    input.blur();
    input.focus();
    await waitFor(() => expect(preload).toHaveBeenCalledTimes(2));
    input.blur();
    input.focus();
    await idle();
    expect(preload).toHaveBeenCalledTimes(2);
  });
});
