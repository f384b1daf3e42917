import type { Meta, StoryObj } from '@storybook/react-vite';
import { ChatSurface, type MessagesOverride } from '../src';
import type { Citation, ThreadEventInput } from '../src/runtime/events';
import type { ScriptedWorkspace } from '../src/components/testing/scriptedWorkspace';
import { ar } from './locales/ar';
import { scriptedStory } from './scripted';

type Args = { workspace: ScriptedWorkspace; locale?: string; dir?: 'ltr' | 'rtl'; messages?: MessagesOverride };

/** A reply that cites its sources (issue 41): numbered markers after the cited text, and the list under it. */
const meta = {
  title: 'Citations',
  render: (args) => (
    <div style={{ height: 560 }}>
      <ChatSurface
        workspace={args.workspace}
        theme="light"
        {...(args.locale ? { locale: args.locale } : {})}
        {...(args.dir ? { dir: args.dir } : {})}
        {...(args.messages ? { messages: args.messages } : {})}
      />
    </div>
  ),
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

const claude = { id: 'anthropic', label: 'Claude' };
const REPLY = 'The handbook says new records are checked **within a day**, and the audit found that most were checked the same morning. See the policy page for the details.';
const span = (part: string) => ({ start: REPLY.indexOf(part), end: REPLY.indexOf(part) + part.length });

const asked: ThreadEventInput[] = [
  { type: 'message.created', message_id: 'u1', role: 'user', text: 'How quickly are new records checked?', turn_id: 't1' },
  { type: 'turn.started', turn_id: 't1', driver: claude },
  { type: 'message.created', message_id: 'a1', role: 'assistant', text: '', turn_id: 't1', driver: claude },
];
const cite = (citation: Citation): ThreadEventInput => ({ type: 'message.cited', message_id: 'a1', citation });
const handbook = cite({
  source: { kind: 'document', title: 'Records handbook', index: 0 },
  cited_text: 'Every new record is checked within one working day of its creation.',
  location: { unit: 'page', start: 12, end: 13 },
  range: span('The handbook says new records are checked **within a day**'),
});
const audit = cite({
  source: { kind: 'search_result', title: 'Audit 2026: record checks', url: 'https://example.com/audit-2026', index: 0 },
  cited_text: 'Of 1,204 records created in March, 1,031 were checked before noon on the day they were made.',
  location: { unit: 'block', start: 2, end: 3 },
  range: span('most were checked the same morning'),
});
const policy = cite({
  source: { kind: 'resource', title: 'Record checking policy', url: 'https://example.com/policy' },
  cited_text: 'The policy that sets the checking times.',
});
const done: ThreadEventInput[] = [
  { type: 'message.done', message_id: 'a1' },
  { type: 'turn.done', turn_id: 't1', outcome: 'answered' },
];

/** Done: markers [1] [2] after the cited text, and "Sources" under the reply (a page, a passage, a link a tool gave). */
export const Cited: Story = {
  args: { workspace: scriptedStory([...asked, { type: 'message.delta', message_id: 'a1', delta: REPLY }, handbook, audit, policy, ...done]) },
};

/** While the reply streams: the first source is in, the rest of the text still coming. */
export const Streaming: Story = {
  args: { workspace: scriptedStory([...asked, { type: 'message.delta', message_id: 'a1', delta: REPLY.slice(0, span('within a day**').end + 2) }, handbook]) },
};

/** A reply that thought first and cites: "Thought for 3 s" above it, the sources under it. */
export const ThoughtAndCited: Story = {
  args: {
    workspace: scriptedStory(
      [
        ...asked,
        { type: 'reasoning.delta', message_id: 'a1', delta: 'The handbook and the audit both speak to this; quote them.' },
        { type: 'reasoning.done', message_id: 'a1' },
        { type: 'message.delta', message_id: 'a1', delta: REPLY },
        handbook,
        audit,
        ...done,
      ],
      { now: (() => { let t = 1_700_000_000_000; return () => (t += 1_500); })() },
    ),
  },
};

/** Sources without titles or locations: named by their document's number or address. */
export const Untitled: Story = {
  args: {
    workspace: scriptedStory([
      ...asked,
      { type: 'message.delta', message_id: 'a1', delta: REPLY },
      cite({ source: { kind: 'document', index: 1 }, cited_text: 'Checked within one working day.', range: span('The handbook says') }),
      cite({ source: { kind: 'web', url: 'https://example.org/a-very-long-address/that-goes-on/and-on/records-and-checks?page=2' }, cited_text: 'Most records are checked in the morning.', range: span('same morning') }),
      ...done,
    ]),
  },
};

/** In Arabic, right to left: the markers and the list follow the text's direction. */
export const ArabicRtl: Story = {
  args: {
    locale: 'ar',
    dir: 'rtl',
    messages: ar,
    workspace: scriptedStory([...asked, { type: 'message.delta', message_id: 'a1', delta: REPLY }, handbook, audit, policy, ...done]),
  },
};
