import type { Meta, StoryObj } from '@storybook/react-vite';
import { ChatSurface, type MessagesOverride } from '../src';
import type { ThreadEventInput } from '../src/runtime';
import type { ScriptedWorkspace } from '../src/components/testing/scriptedWorkspace';
import type { WorkspaceAdapter } from '../src/workspace/types';
import { ar } from './locales/ar';
import { de } from './locales/de';
import { scriptedStory } from './scripted';
import { assistantReply, userMessage } from '../src/components/testing/versionEvents';

type Args = { workspace: WorkspaceAdapter; locale?: string; dir?: 'ltr' | 'rtl'; messages?: MessagesOverride };

/**
 * Edit and regenerate as branches (issue 40): Edit on the user's messages (it opens in place),
 * Regenerate on a reply, and the versions picker ("‹ 2 / 3 ›") on a message or a reply that has
 * more than one. On a scripted workspace whose edits, regenerations and switches emit the events
 * a host does, so every button works in the story.
 */
const meta = {
  title: 'Versions',
  render: (args) => (
    <div style={{ height: 560 }}>
      <ChatSurface
        workspace={args.workspace}
        theme="light"
        threadStorageKey={false}
        {...(args.locale ? { locale: args.locale } : {})}
        {...(args.dir ? { dir: args.dir } : {})}
        {...(args.messages ? { messages: args.messages } : {})}
      />
    </div>
  ),
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

const driver = { id: 'offline', label: 'Offline model' };
const user = userMessage;
const reply = (id: string, text: string, branch: string) => assistantReply(id, text, branch, driver);

const firstTurn = (): ThreadEventInput[] => [
  user('u1', 'How many records are enriched?', 'root'),
  ...reply('a1', '**4 of 6** records are enriched.', 'u1.reply'),
];

/** The second message edited twice: three versions, the newest shown ("3 / 3"). */
const editedTwice = (): ThreadEventInput[] => [
  ...firstTurn(),
  user('u2', 'Which ones are not?', 'u1.reply'),
  ...reply('a2', 'Alan Turing and Katherine Johnson.', 'u2.reply'),
  user('u2b', 'Which ones are missing a company?', 'u1.reply', 'u2'),
  ...reply('a2b', 'Two: Alan Turing and Katherine Johnson.', 'u2b.reply'),
  user('u2c', 'Enrich the ones that are not.', 'u1.reply', 'u2'),
  ...reply('a2c', 'I can run **Enrich records** on those two. Shall I?', 'u2c.reply'),
];

/** The first reply made again: two replies to the first message, the new one shown ("2 / 2"). */
const regenerated = (): ThreadEventInput[] => [
  ...firstTurn(),
  { type: 'reply.regenerated', message_id: 'u1', reply_id: 'r2' },
  ...reply('a1r', 'Four records are enriched: Ada Lovelace, Grace Hopper, Alan Turing and Katherine Johnson.', 'r2'),
];

let made = 0;
/**
 * The scripted workspace with versions: `send` with `edits` makes the new version and a reply,
 * `regenerate` a new reply, `showVersion` the switch; each as the host stamps it.
 */
function withVersions(events: ThreadEventInput[], overrides: Partial<WorkspaceAdapter> = {}): ScriptedWorkspace {
  const ws = scriptedStory(events);
  const emitAll = (list: ThreadEventInput[]) => list.forEach((event) => ws.log.emit(event));
  const parentOf = (messageId: string) => {
    for (const event of ws.log.since()) if (event.type === 'message.created' && event.message_id === messageId) return event.branch ?? 'root';
    return 'root';
  };
  const send = ws.send;
  return Object.assign(ws, {
    async send(turn: Parameters<WorkspaceAdapter['send']>[0]) {
      if (!turn.edits) return send(turn);
      const id = `edit-${++made}`;
      let first = turn.edits;
      for (const event of ws.log.since()) if (event.type === 'message.created' && event.message_id === turn.edits && event.version_of) first = event.version_of;
      emitAll([user(id, turn.text, parentOf(turn.edits), first), ...reply(`${id}-reply`, `You asked: “${turn.text}”. Here is a new answer.`, `${id}.reply`)]);
    },
    async regenerate({ messageId }: { messageId: string }) {
      const id = `again-${++made}`;
      emitAll([{ type: 'reply.regenerated', message_id: messageId, reply_id: id }, ...reply(`${id}-reply`, 'Here is another answer to the same question.', id)]);
    },
    async showVersion({ part, messageId, version }: { part: 'message' | 'reply'; messageId: string; version: string }) {
      ws.log.emit({ type: 'version.selected', part, message_id: messageId, version });
    },
    ...overrides,
  });
}

/** Waits for an element of the story, then clicks it (the last one that matches: the newest message's). */
const click = (selector: string) => async ({ canvasElement }: { canvasElement: HTMLElement }) => {
  for (let i = 0; i < 100; i++) {
    const el = [...canvasElement.querySelectorAll<HTMLElement>(selector)].at(-1);
    if (el) return el.click();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};
const clickAll = (...selectors: string[]) => async (context: { canvasElement: HTMLElement }) => {
  for (const selector of selectors) {
    await click(selector)(context);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

const lastEdit = '[data-part="message-edit"]';

/** Every message of the user's has Edit; every reply Regenerate (on its first row); no message has versions yet. */
export const EditAndRegenerate: Story = { args: { workspace: withVersions([...firstTurn(), user('u2', 'Which ones are not?', 'u1.reply'), ...reply('a2', 'Alan Turing and Katherine Johnson.', 'u2.reply')]) } };

/** A message edited twice: its picker says 3 / 3; Previous shows the older versions, each with the reply it had. */
export const MessageVersions: Story = { args: { workspace: withVersions(editedTwice()) } };

/** An older version shown (2 / 3): the picker's Previous and Next both enabled. */
export const MiddleVersion: Story = {
  args: { workspace: withVersions([...editedTwice(), { type: 'version.selected', part: 'message', message_id: 'u2', version: 'u2b' }]) },
};

/** A reply made again: the reply's picker (2 / 2) on its first row; Previous shows the first reply. */
export const ReplyVersions: Story = { args: { workspace: withVersions(regenerated()) } };

/** While a reply is being written the picker's buttons are disabled (the workspace refuses to switch then). */
export const WhileAReplyRuns: Story = {
  args: {
    workspace: withVersions([
      ...editedTwice(),
      user('u3', 'Go ahead.', 'u2c.reply'),
      { type: 'turn.started', turn_id: 't3' },
      { type: 'message.created', message_id: 'a3', role: 'assistant', text: 'Enriching the two records', branch: 'u3.reply', turn_id: 't3', driver },
    ]),
  },
};

/** Edit pressed: the message open in place, focused, with its text, Send and Cancel (Escape cancels too). */
export const Editing: Story = { args: { workspace: withVersions(editedTwice()) }, play: click(lastEdit) };

/** Send pressed, the workspace not done yet: the editor says it is sending (`data-state="sending"`). */
export const EditSending: Story = {
  args: { workspace: withVersions(editedTwice(), { send: () => new Promise<void>(() => {}) }) },
  play: clickAll(lastEdit, '[data-part="message-editor"] button[type="submit"]'),
};

/** An edit the workspace refused: the reason under the text box, the text kept. */
export const EditRefused: Story = {
  args: { workspace: withVersions(editedTwice(), { send: () => Promise.reject(new Error('The server is restarting; try again in a moment.')) }) },
  play: clickAll(lastEdit, '[data-part="message-editor"] button[type="submit"]'),
};

/** A switch the workspace refused: the reason in the picker, the version shown as it was. */
export const SwitchRefused: Story = {
  args: { workspace: withVersions(editedTwice(), { showVersion: () => Promise.reject(new Error('A reply is being written; switch when it is done.')) }) },
  play: click('[data-part="branch-picker-previous"]'),
};

/** A regeneration the workspace refused: the reason under the reply. */
export const RegenerateRefused: Story = {
  args: { workspace: withVersions(firstTurn(), { regenerate: () => Promise.reject(new Error('The model is unavailable right now.')) }) },
  play: click('[data-part="message-regenerate"]'),
};

/** In German: Bearbeiten, Neu erzeugen, „Versionen“ with „Vorherige Version“ / „Nächste Version“. */
export const German: Story = { args: { workspace: withVersions(editedTwice()), locale: 'de', messages: de } };

/** In Arabic, right to left: the picker's arrows point the way the text reads. */
export const ArabicRtl: Story = { name: 'Arabic (RTL)', args: { workspace: withVersions(editedTwice()), locale: 'ar', dir: 'rtl', messages: ar } };

/**
 * A long thread (300 messages, virtualised) whose 101st message was edited, the edit shown at the
 * end: Previous version brings back the first version with its 100 messages after it, and the
 * view stays on the message switched ("Jump to latest" offers the rest).
 */
export const LongContinuation: Story = {
  args: {
    workspace: withVersions([
      ...Array.from({ length: 150 }, (_, k) => [
        user(`m-${2 * k}`, `#${2 * k} Tell me about record ${2 * k}.`, k ? `m-${2 * k - 2}.reply` : 'root'),
        ...reply(`m-${2 * k + 1}`, `#${2 * k + 1} Here is what I found about record ${2 * k + 1}.`, `m-${2 * k}.reply`),
      ]).flat(),
      user('m-200-edit', '#200 asked again: tell me about record 200 instead.', 'm-198.reply', 'm-200'),
      ...reply('m-200-edit-reply', 'A new answer about record 200.', 'm-200-edit.reply'),
    ]),
  },
};
