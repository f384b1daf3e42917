import type { Meta, StoryObj } from '@storybook/react-vite';
import { ChatSurface, InvocationCard } from '../src';
import type { InvocationRow } from '../src/runtime';
import { cardRows, storyWorkspace } from './fixtures';

const workspace = storyWorkspace();

const meta = {
  title: 'InvocationCard',
  render: ({ row }) => (
    <ChatSurface.Root workspace={workspace} theme="light">
      <InvocationCard row={row} />
    </ChatSurface.Root>
  ),
} satisfies Meta<{ row: InvocationRow }>;
export default meta;
type Story = StoryObj<{ row: InvocationRow }>;

/** Running with a known total: a determinate bar and the handler's message. */
export const Running: Story = { args: { row: cardRows.running! } };
/** Running without a total: an indeterminate bar. */
export const RunningIndeterminate: Story = { args: { row: cardRows.indeterminate! } };
/** Running and streaming output. */
export const StreamingOutput: Story = { args: { row: cardRows.streaming! } };
/** Done, with the result's summary and the raw envelope behind a disclosure. */
export const Done: Story = { args: { row: cardRows.done! } };
/** Refused before running: each bad field listed. */
export const InvalidArguments: Story = { args: { row: cardRows.invalid! } };
/** The tool reported an error (`isError: true`). */
export const ToolError: Story = { args: { row: cardRows.toolError! } };
/** Cancelled by the user. */
export const Cancelled: Story = { args: { row: cardRows.cancelled! } };
/** Waiting to start, tracked as a job. */
/** Stopped part way: it says what it had done before the stop (its last progress report). */
export const CancelledPartWay: Story = { args: { row: cardRows.cancelledPartWay! } };

/** A table wider than a phone's card: it scrolls sideways in a named, focusable region, its hidden side faded. */
export const DoneWideTableNarrow: Story = {
  args: { row: cardRows.wideTable! },
  render: ({ row }) => (
    <div style={{ width: 320 }}>
      <ChatSurface.Root workspace={workspace} theme="light">
        <InvocationCard row={row} />
      </ChatSurface.Root>
    </div>
  ),
};

export const Queued: Story = { args: { row: cardRows.queued! } };
/** Long streamed output: the newest lines, with a toggle for all of them. */
export const LongOutput: Story = { args: { row: cardRows.longOutput! } };
/** Done, `display_hint.kind: 'table'`. */
export const DoneTable: Story = { args: { row: cardRows.table! } };
/** Done, `display_hint.kind: 'list'`. */
export const DoneList: Story = { args: { row: cardRows.list! } };
/** Done, `display_hint.kind: 'json'`. */
export const DoneJson: Story = { args: { row: cardRows.json! } };
/** Done, `display_hint.kind: 'link'`. */
export const DoneLink: Story = { args: { row: cardRows.link! } };
/** Done, but slower than its soft time limit, with a failed check. */
export const SlowWithFailedCheck: Story = { args: { row: cardRows.slow! } };
/** Done with every check passed: the summary sentence and the "✓ checked" line; output and fields under Details. */
export const DoneChecked: Story = { args: { row: cardRows.checked! } };
/** Done, but a check did not hold: the card turns amber and says so in words. */
export const DoneFailedCheck: Story = { args: { row: cardRows.failedCheck! } };
/** A host that turned Details off (`InvocationCard.Defaults details={false}`). */
export const DetailsOff: Story = {
  args: { row: cardRows.checked! },
  render: ({ row }) => (
    <ChatSurface.Root workspace={workspace} theme="light">
      <InvocationCard.Defaults details={false}>
        <InvocationCard row={row} />
      </InvocationCard.Defaults>
    </ChatSurface.Root>
  ),
};
