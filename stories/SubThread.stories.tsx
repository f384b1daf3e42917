import type { Meta, StoryObj } from '@storybook/react-vite';
import { ChatSurface } from '../src';
import type { ThreadEventInput } from '../src/runtime/events';
import type { ScriptedWorkspace } from '../src/components/testing/scriptedWorkspace';
import { scriptedStory } from './scripted';

type Args = { workspace: ScriptedWorkspace };

/** A skill with `launchesSubThread` runs in a child thread: the parent's link row in each state, its summary, and the child's first row. */
const meta = {
  title: 'Rows/Sub-thread',
  render: (args) => (
    <div style={{ height: 560 }}>
      <ChatSurface workspace={args.workspace} theme="light" threadStorageKey={false} activeView={{ kind: 'record_list' }} />
    </div>
  ),
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

const child = 'main.sub-review1';
const opened: ThreadEventInput[] = [
  { type: 'message.created', message_id: 'u1', role: 'user', text: 'the new records', skill: '/review', turn_id: 't1' },
  { type: 'subthread.opened', subthread_id: child, skill: 'Skill/review', title: '/review', task: 'the new records', turn_id: 't1' },
];
const ended = (outcome: 'done' | 'failed' | 'cancelled' | 'interrupted', summary: string): ThreadEventInput[] => [
  ...opened,
  { type: 'subthread.done', subthread_id: child, outcome, summary, title: '/review' },
];

/** The child is working: the row links to it and offers Stop. */
export const Running: Story = { args: { workspace: scriptedStory(opened) } };
/** The child finished: the row says so and the summary row carries its last reply. */
export const Done: Story = {
  args: { workspace: scriptedStory(ended('done', 'Three of the 6 records need attention: Ada Lovelace has no email, Bo Chen and Cy Diaz have no company.')) },
};
/** The child's turn failed: the error in words. */
export const Failed: Story = { args: { workspace: scriptedStory(ended('failed', 'The model is rate limited; try again in a minute.')) } };
/** Stopped from the parent's row. */
export const Cancelled: Story = { args: { workspace: scriptedStory(ended('cancelled', 'Stopped before it finished.')) } };
/** The workspace restarted while the child worked. */
export const Interrupted: Story = {
  args: { workspace: scriptedStory(ended('interrupted', 'The workspace restarted while the sub-thread was working, so it stopped there; open it to see how far it got.')) },
};
/** The child's own transcript: its origin row (the way back), the skill's message and its reply. */
export const InsideTheSubThread: Story = {
  args: {
    workspace: scriptedStory([
      { type: 'subthread.linked', parent_id: 'main', skill: 'Skill/review', title: '/review', task: 'the new records' },
      { type: 'message.created', message_id: 'u1', role: 'user', text: 'the new records', skill: '/review', turn_id: 't1' },
      { type: 'skill.activated', skill: 'Skill/review', title: '/review' },
      { type: 'message.created', message_id: 'a1', role: 'assistant', text: 'Three of the 6 records need attention.', turn_id: 't1' },
      { type: 'message.done', message_id: 'a1' },
    ]),
  },
};
