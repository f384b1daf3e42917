import type { Meta, StoryObj } from '@storybook/react-vite';
import { ChatSurface } from '../src';
import type { ScriptedWorkspace } from '../src/components/testing/scriptedWorkspace';
import { scenes, scriptedStory } from './scripted';

type Args = { workspace: ScriptedWorkspace };

/** Rows the turn engine emits, on a scripted workspace whose decisions emit the real resolution events. */
const meta = {
  title: 'Rows',
  render: (args) => (
    <div style={{ height: 560 }}>
      <ChatSurface workspace={args.workspace} theme="light" activeView={{ kind: 'record_list' }} />
    </div>
  ),
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

/** A proposal waiting for Accept or Dismiss; accepting runs the capability. */
export const Proposal: Story = { args: { workspace: scriptedStory(scenes.proposal()) } };
/** An accepted proposal and the invocation it started. */
export const ProposalAccepted: Story = { args: { workspace: scriptedStory(scenes.proposalAccepted()) } };
/** A destructive change that waits for Approve or Deny. */
export const Approval: Story = { args: { workspace: scriptedStory(scenes.approval()) } };
/** A denied change: nothing ran. */
export const ApprovalDenied: Story = { args: { workspace: scriptedStory(scenes.approvalDenied()) } };
/** A clarifying question with quick answers and a box for the user's own. */
/** Approved, and its run finished: the row says so, not "it is running". */
export const ApprovalFinished: Story = { args: { workspace: scriptedStory(scenes.approvalRan('done')) } };

/** Approved, but its run failed: the row says so. */
export const ApprovalRunFailed: Story = { args: { workspace: scriptedStory(scenes.approvalRan('failed')) } };

/** Approved, then its run was stopped: the row says so. */
export const ApprovalRunStopped: Story = { args: { workspace: scriptedStory(scenes.approvalRan('cancelled')) } };

/** A Stop while a run went on: its card says what it had done, and offers the one Retry. */
export const StoppedPartWay: Story = { args: { workspace: scriptedStory(scenes.stoppedPartWay()) } };

export const Question: Story = { args: { workspace: scriptedStory(scenes.question()) } };
/** An answered question and the standing request it led to. */
export const QuestionAnswered: Story = { args: { workspace: scriptedStory(scenes.questionAnswered()) } };
/** A check that failed after the import finished: expected and found. */
export const QualityViolation: Story = { args: { workspace: scriptedStory(scenes.violation()) } };
/** A recoverable model error with Retry, and a turn the user stopped. */
export const ErrorAndStopped: Story = { args: { workspace: scriptedStory(scenes.errors()) } };
/** A reply the server's restart cut off: the text that arrived, and a plain note saying so. */
export const InterruptedReply: Story = {
  args: {
    workspace: scriptedStory([
      { type: 'message.created', message_id: 'u1', role: 'user', text: 'Write a short report on the new sign-ups.', turn_id: 't1' },
      { type: 'turn.started', turn_id: 't1', driver: { id: 'offline', label: 'Offline model' } },
      { type: 'message.created', message_id: 'a1', role: 'assistant', text: '', turn_id: 't1', driver: { id: 'offline', label: 'Offline model' } },
      { type: 'message.delta', message_id: 'a1', delta: '### New sign-ups\n\nThis week **14 people** signed up, most of them from' },
      { type: 'message.done', message_id: 'a1', interrupted: true },
      { type: 'turn.done', turn_id: 't1', outcome: 'interrupted' },
    ]),
  },
};

const answered = (extra: Parameters<typeof scriptedStory>[0] = []) =>
  scriptedStory([
    { type: 'message.created', message_id: 'u1', role: 'user', text: 'How many records are enriched?', turn_id: 't1' },
    { type: 'turn.started', turn_id: 't1' },
    { type: 'message.created', message_id: 'a1', role: 'assistant', text: '', turn_id: 't1', driver: { id: 'offline', label: 'Offline model' } },
    { type: 'message.delta', message_id: 'a1', delta: '**4 of 6** records are enriched:\n\n- Ada Lovelace\n- Grace Hopper\n- Alan Turing\n- Katherine Johnson' },
    { type: 'message.done', message_id: 'a1' },
    { type: 'turn.done', turn_id: 't1', outcome: 'answered' },
    ...extra,
  ]);

/** A finished reply with its actions: Copy, Good response, Bad response (none pressed). */
export const ReplyActions: Story = { args: { workspace: answered() } };
/** A reply rated "Good response": its toggle pressed. */
export const ReplyRatedGood: Story = { args: { workspace: answered([{ type: 'message.feedback', message_id: 'a1', rating: 'good' }]) } };
/** A reply rated "Bad response" with the user's comment. */
export const ReplyRatedBad: Story = {
  args: { workspace: answered([{ type: 'message.feedback', message_id: 'a1', rating: 'bad', comment: 'Katherine Johnson is not enriched yet.' }]) },
};

/** Clicks a reply's rating button once the story has rendered (the comment box and the refusal are states a click brings). */
const clickRating = (name: string) => async ({ canvasElement }: { canvasElement: HTMLElement }) => {
  for (let i = 0; i < 100; i++) {
    const button = canvasElement.querySelector<HTMLButtonElement>(`[data-part="message-rating"][aria-label="${name}"]`);
    if (button) return button.click();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/** After "Bad response": the optional comment box, focused, with Send feedback and Skip. */
export const ReplyCommentOpen: Story = { args: { workspace: answered() }, play: clickRating('Bad response') };

/** A rating the workspace could not save: the buttons stay as they were and the reason shows. */
export const ReplyRatingNotSaved: Story = {
  args: { workspace: Object.assign(answered(), { feedback: () => Promise.reject(new Error('The server is restarting; try again in a moment.')) }) },
  play: clickRating('Good response'),
};

/** A reply still being written (its turn running), for the queue's stories. */
const replyRunning = () =>
  scriptedStory([
    { type: 'message.created', message_id: 'u1', role: 'user', text: 'Summarise the new sign-ups', turn_id: 't1' },
    { type: 'turn.started', turn_id: 't1' },
    { type: 'message.created', message_id: 'a1', role: 'assistant', text: 'This week **14 people** signed up, most of them from', turn_id: 't1', driver: { id: 'offline', label: 'Offline model' } },
  ]);

/** Types into the message box and presses Enter, as a user would while the reply runs. */
async function sendWhileRunning(canvasElement: HTMLElement, texts: readonly string[]) {
  let box: HTMLTextAreaElement | null = null;
  for (let i = 0; i < 100 && !box; i++) {
    box = canvasElement.querySelector<HTMLTextAreaElement>('[data-part="composer-input"]');
    if (!box) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const setValue = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!;
  for (const text of texts) {
    setValue.call(box, text);
    box!.dispatchEvent(new Event('input', { bubbles: true }));
    box!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Two messages sent while the reply runs: they wait under the transcript, each with Send now, Edit and Remove. */
export const QueueWaiting: Story = {
  args: { workspace: replyRunning() },
  play: ({ canvasElement }) => sendWhileRunning(canvasElement, ['Only the ones from Germany', 'Then export them to the CRM']),
};

/** After Stop: the queued messages wait until the user sends them ("Send queued messages"). */
export const QueuePaused: Story = {
  args: { workspace: replyRunning() },
  play: async ({ canvasElement }) => {
    await sendWhileRunning(canvasElement, ['Only the ones from Germany']);
    canvasElement.querySelector<HTMLButtonElement>('[data-part="composer-stop"]')?.click();
  },
};

/** A queued message being edited in place: Save or Cancel. */
export const QueueEditing: Story = {
  args: { workspace: replyRunning() },
  play: async ({ canvasElement }) => {
    await sendWhileRunning(canvasElement, ['Only the ones from Germny']);
    canvasElement.querySelector<HTMLButtonElement>('[data-part="message-queue-item"] button[aria-label^="Edit"]')?.click();
  },
};
