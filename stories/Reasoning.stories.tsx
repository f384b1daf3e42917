import type { Meta, StoryObj } from '@storybook/react-vite';
import { ChatSurface } from '../src';
import type { ThreadEventInput } from '../src/runtime/events';
import type { ScriptedWorkspace } from '../src/components/testing/scriptedWorkspace';
import { scriptedStory } from './scripted';

type Args = { workspace: ScriptedWorkspace };

/** The model's reasoning above its reply (issue 41): a collapsed disclosure, in each of its states. */
const meta = {
  title: 'Reasoning',
  render: (args) => (
    <div style={{ height: 480 }}>
      <ChatSurface workspace={args.workspace} theme="light" />
    </div>
  ),
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

const claude = { id: 'anthropic', label: 'Claude' };
/** A clock a second further on each event: the reasoning below takes a few seconds. */
const ticking = () => {
  let t = 1_700_000_000_000;
  return () => (t += 1_000);
};
const asked: ThreadEventInput[] = [
  { type: 'message.created', message_id: 'u1', role: 'user', text: 'Which of my records were added this week?', turn_id: 't1' },
  { type: 'turn.started', turn_id: 't1', driver: claude },
  { type: 'message.created', message_id: 'a1', role: 'assistant', text: '', turn_id: 't1', driver: claude },
];
const thinking: ThreadEventInput[] = [
  { type: 'reasoning.delta', message_id: 'a1', delta: 'The user asks about records added this week. ' },
  { type: 'reasoning.delta', message_id: 'a1', delta: 'I should list the records, then keep those created since Monday, ' },
  { type: 'reasoning.delta', message_id: 'a1', delta: 'and say how many there are before naming them.' },
];
const answered: ThreadEventInput[] = [
  { type: 'message.delta', message_id: 'a1', delta: 'Three records were added this week: **Ada Lovelace**, **Grace Hopper** and **Alan Turing**.' },
  { type: 'message.done', message_id: 'a1' },
  { type: 'turn.done', turn_id: 't1', outcome: 'answered' },
];

const open = async ({ canvasElement }: { canvasElement: HTMLElement }) => {
  for (let i = 0; i < 100; i++) {
    const toggle = canvasElement.querySelector<HTMLElement>('[data-part="reasoning-toggle"]:is(button)');
    if (toggle) return toggle.click();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/** While the model thinks: "Thinking…", collapsed (`data-state="streaming"`). */
export const Thinking: Story = { args: { workspace: scriptedStory([...asked, ...thinking], { now: ticking() }) } };

/** While the model thinks, opened: the reasoning so far streams in below the button. */
export const ThinkingOpen: Story = { args: { workspace: scriptedStory([...asked, ...thinking], { now: ticking() }) }, play: open };

/** Done: "Thought for 3 s", collapsed above the reply (`data-state="done"`). */
export const Thought: Story = {
  args: { workspace: scriptedStory([...asked, ...thinking, { type: 'reasoning.done', message_id: 'a1' }, ...answered], { now: ticking() }) },
};

/** Done and opened: the whole reasoning, quiet, above the reply. */
export const ThoughtOpen: Story = {
  args: { workspace: scriptedStory([...asked, ...thinking, { type: 'reasoning.done', message_id: 'a1' }, ...answered], { now: ticking() }) },
  play: open,
};

/** Reasoning the provider hid: said in plain words, nothing to open (`data-state="redacted"`). */
export const Redacted: Story = {
  args: { workspace: scriptedStory([...asked, { type: 'reasoning.done', message_id: 'a1', redacted: true }, ...answered], { now: ticking() }) },
};
