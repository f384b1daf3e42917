import type { Meta, StoryObj } from '@storybook/react-vite';
import { deferred } from '../src/components/deferred/deferred';
import { TurnRowLoading } from '../src/components/rows/deferredRows';

// The states a deferred part (the slash popup, picker and panel, the rows a turn adds, loaded as
// chunks of their own) shows before its code is there: "Opening…" (or the row's frame saying what
// is loading) while it loads, an alert when it cannot be loaded.

const opening = (
  <p role="status" data-part="slash-loading">
    Opening…
  </p>
);

const neverArrives = deferred<{ title: string }>(() => new Promise(() => {}), 'Story.Picker', opening, 'The picker');
const cannotLoad = deferred<{ title: string }>(
  () => Promise.reject(new Error('Failed to fetch dynamically imported module: /assets/NodePicker-3f2a.js')),
  'Story.Picker',
  opening,
  'The picker',
);

const meta = { title: 'Deferred parts' } satisfies Meta;
export default meta;
type Story = StoryObj;

/** The part's code is still on its way: a polite status says so. */
export const Opening: Story = {
  render: () => (
    <section aria-label="Chat" data-chat-surface="" data-theme="light">
      <neverArrives.Part title="Choose an agent" />
    </section>
  ),
};

/** The chunk could not be fetched (offline, a deploy removed it): an alert says what and why. */
export const LoadFailed: Story = {
  render: () => (
    <section aria-label="Chat" data-chat-surface="" data-theme="light">
      <cannotLoad.Part title="Choose an agent" />
    </section>
  ),
};

/** A row a turn added came before the rows' chunk (a thread opened with it): its frame says what is loading. */
export const RowLoading: Story = {
  render: () => (
    <section aria-label="Chat" data-chat-surface="" data-theme="light">
      <TurnRowLoading part="proposal" what="the suggested action" />
    </section>
  ),
};
