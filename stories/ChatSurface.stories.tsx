import type { Meta, StoryObj } from '@storybook/react-vite';
import { ChatSurface, type MessagesOverride, type WorkspaceAdapter } from '../src';
import { ar } from './locales/ar';
import { de } from './locales/de';
import { arabicThread, germanThread } from './locales/scenes';
import { storyWorkspace } from './fixtures';
import { longHistory, scenes, scriptedStory, streamLongAnswer, streamLongParagraph } from './scripted';

type Args = {
  workspace: WorkspaceAdapter;
  theme?: 'light' | 'dark' | 'system';
  view?: string;
  /** The surface's language and words (the language stories). */
  locale?: string;
  dir?: 'ltr' | 'rtl';
  messages?: MessagesOverride;
};

const meta = {
  title: 'ChatSurface',
  render: (args) => (
    <div style={{ height: 520 }}>
      <ChatSurface
        workspace={args.workspace}
        theme={args.theme ?? 'light'}
        {...(args.view ? { activeView: { kind: args.view } } : {})}
        {...(args.locale ? { locale: args.locale } : {})}
        {...(args.dir ? { dir: args.dir } : {})}
        {...(args.messages ? { messages: args.messages } : {})}
      />
    </div>
  ),
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

/** A fresh thread on the local workspace. */
export const Empty: Story = { args: { workspace: storyWorkspace() } };

/** A long paste from the user, collapsed until "Show all". */
export const LongPaste: Story = { args: { workspace: scriptedStory(scenes.longPaste()) } };

/** The offline model answering a question. */
export const Conversation: Story = {
  args: { workspace: storyWorkspace() },
  loaders: [
    async ({ args }) => {
      await args.workspace.send({ threadId: 'main', text: 'What can you do?' });
      await args.workspace.send({ threadId: 'main', text: 'Count records please' });
      return {};
    },
  ],
};

/** A slow capability at work: its card runs, its actor stands in the cast row, and Stop shows. */
export const Working: Story = {
  args: { workspace: storyWorkspace() },
  loaders: [
    async ({ args }) => {
      void args.workspace.send({ threadId: 'main', text: 'enrich records limit=10' });
      await new Promise((resolve) => setTimeout(resolve, 0));
      return {};
    },
  ],
};

/** Arguments the schema refuses: the card names the field, nothing ran. */
export const InvalidArguments: Story = {
  args: { workspace: storyWorkspace() },
  loaders: [
    async ({ args }) => {
      await args.workspace.send({ threadId: 'main', text: 'enrich records limit=500' });
      return {};
    },
  ],
};

/** Suggested next verbs for the records list: a chip runs its capability with no model call. */
export const Suggestions: Story = { args: { workspace: scriptedStory([]), view: 'record_list' } };

/** Assistant markdown: headings, code with Copy, a table, a task list, a safe link and a refused one. */
export const Markdown: Story = { args: { workspace: scriptedStory(scenes.markdown()) } };

/** A long reply still streaming: its plain start is text, the link and bold at its end are formatted, the cursor shows. */
export const StreamingLongReply: Story = { args: { workspace: scriptedStory(scenes.streamingLong()) } };

/**
 * Sending streams one long paragraph (about 21,000 characters): while it grows, its finished
 * lines are set apart (`data-part="markdown-run"`) and only its last lines are laid out each frame.
 */
export const StreamingOneLongParagraph: Story = {
  args: { workspace: scriptedStory([], { onSend: (_text, api) => streamLongParagraph(api) }) },
};

/** 10,000 messages, virtualised: only the rows near the viewport are in the page. Sending streams a long answer. */
export const LongTranscript: Story = {
  args: { workspace: scriptedStory(longHistory(10_000), { onSend: (_text, api) => streamLongAnswer(api) }) },
};

/**
 * 98 messages: every row is in the page (rows in flow); two more turns take the thread past 100
 * rows, and the transcript goes over to virtualised rows with the reader kept at the end. A reply
 * streams for about three seconds, long enough to scroll while it grows.
 */
export const NearlyHundredMessages: Story = {
  args: { workspace: scriptedStory(longHistory(98), { onSend: (_text, api) => streamLongAnswer(api) }) },
};

/**
 * 10,000 messages whose newest turns show first while the rest loads: a turn started well above
 * them is still running (Stop is offered from the first frame), and an approval waits at the end
 * (announced once, not again when the whole history takes the newest turns' place).
 */
export const LongTranscriptWaiting: Story = {
  args: {
    workspace: scriptedStory([
      ...longHistory(10_000),
      { type: 'turn.started', turn_id: 't-agent' },
      ...longHistory(120).map((e) => ('message_id' in e ? { ...e, message_id: `agent-${e.message_id}` } : e)),
      ...scenes.approval(),
    ]),
  },
};

/** The dark theme, with rows of every kind. */
export const Dark: Story = {
  args: { workspace: scriptedStory([...scenes.markdown(), ...scenes.violation(), ...scenes.approval()]), theme: 'dark', view: 'record_list' },
};

/** The dark theme on the local workspace. */
export const DarkLocal: Story = {
  args: { workspace: storyWorkspace(), theme: 'dark' },
  loaders: [
    async ({ args }) => {
      await args.workspace.send({ threadId: 'main', text: 'Count records' });
      return {};
    },
  ],
};

/**
 * In German (`locale="de"`, `messages={de}`): every word of the surface from the messages object,
 * plurals by `Intl.PluralRules` ("und 1 weitere Zeile", "und 3 weitere Einträge").
 */
export const German: Story = { args: { workspace: germanThread(), view: 'record_list', locale: 'de', messages: de } };

/**
 * In Arabic, right to left (`locale="ar"`, `dir="rtl"`, `messages={ar}`): the surface is laid out
 * from the right (the send button left of the message box), and Arabic's plural forms are used.
 */
export const ArabicRtl: Story = {
  name: 'Arabic (RTL)',
  args: { workspace: arabicThread(), view: 'record_list', locale: 'ar', dir: 'rtl', messages: ar },
};
