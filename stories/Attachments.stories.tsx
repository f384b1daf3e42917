import type { Meta, StoryObj } from '@storybook/react-vite';
import { ChatSurface } from '../src';
import type { ThreadEventInput } from '../src/runtime/events';
import type { ScriptedWorkspace } from '../src/components/testing/scriptedWorkspace';
import { memoryAttachments, type MemoryAttachments, type MemoryAttachmentsOptions } from '../src/components/attachments/memoryAttachments';
import { scriptedStory } from './scripted';

/**
 * Attachments (issue 41, docs/surface.md#attachments): the chips of the files going with the next
 * message (an image with its thumbnail, a file, one uploading, one refused in the server's words),
 * and a sent message's files in the transcript. The files are kept in memory in place of a server.
 */
type Args = { workspace: ScriptedWorkspace & { attachments: MemoryAttachments } };
const meta = {
  title: 'Attachments',
  render: (args) => (
    <div style={{ height: 480 }}>
      <ChatSurface workspace={args.workspace} theme="light" />
    </div>
  ),
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

/** A 16×16 PNG (a blue square). */
const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR4nGPgijhFEmIY1TCqYfhqAAC95iwQc1Al+wAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));
const CSV = 'name,email\nAda Lovelace,ada@analytical.example\nGrace Hopper,grace@cobol.example\n';
const image = (name = 'chart.png') => new File([PNG], name, { type: 'image/png' });
const table = (name = 'customers.csv') => new File([CSV], name, { type: 'text/csv' });

function workspace(events: ThreadEventInput[] = [], options: MemoryAttachmentsOptions = {}, api = memoryAttachments(options)): Args['workspace'] {
  return Object.assign(scriptedStory(events), { attachments: api });
}

/** Puts files in the composer as the file chooser would (the hidden input's change). */
const attach =
  (...files: (() => File)[]) =>
  async ({ canvasElement }: { canvasElement: HTMLElement }) => {
    for (let i = 0; i < 100; i++) {
      const input = canvasElement.querySelector<HTMLInputElement>('[data-part="composer-attach-input"]');
      if (input) {
        const data = new DataTransfer();
        for (const file of files) data.items.add(file());
        input.files = data.files;
        input.dispatchEvent(new Event('change', { bubbles: true }));
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

/** No file yet: the "Attach files" button (a paperclip) beside the message box. */
export const Button: Story = { args: { workspace: workspace() } };

/** An image, uploaded: its thumbnail, name and size, and "Remove chart.png" (`data-kind="image"`, `data-state="ready"`). */
export const ImageChip: Story = { args: { workspace: workspace() }, play: attach(() => image()) };

/** A file, uploaded: a file glyph, name and size (`data-kind="file"`). */
export const FileChip: Story = { args: { workspace: workspace() }, play: attach(() => table()) };

/** Uploading: a progress bar named "Uploading customers.csv"; Send waits and says why. */
export const Uploading: Story = { args: { workspace: workspace([], { hold: true }) }, play: attach(() => table(), () => image()) };

/** Refused: the server's words on the chip (`data-state="refused"`); the message box keeps its text. */
export const Refused: Story = {
  args: { workspace: workspace([], { refuse: () => 'This file looks like a Windows program, which cannot be attached here. Attach PNG, JPEG, GIF, WebP, PDF, plain text, CSV, Markdown or JSON.' }) },
  play: attach(() => image('photo.png')),
};

/** A message with files in the transcript: the image as a thumbnail that opens full size, the CSV as a chip that downloads it. */
export const MessageWithFiles: Story = {
  args: (() => {
    const api = memoryAttachments();
    const picture = api.put(new Blob([PNG], { type: 'image/png' }), 'chart.png');
    const sheet = api.put(new Blob([CSV], { type: 'text/csv' }), 'customers.csv');
    const events: ThreadEventInput[] = [
      { type: 'message.created', message_id: 'u1', role: 'user', text: 'import this, and what does the chart show?', turn_id: 't1', attachments: [picture, sheet] },
      { type: 'turn.started', turn_id: 't1' },
      { type: 'message.created', message_id: 'a1', role: 'assistant', text: 'I see you attached “chart.png” and “customers.csv”.', turn_id: 't1' },
      { type: 'message.done', message_id: 'a1' },
      { type: 'turn.done', turn_id: 't1', outcome: 'answered' },
    ];
    return { workspace: workspace(events, {}, api) };
  })(),
};

/** Files dragged over the surface: the drop target covers it ("Drop files to attach them") until they are dropped or leave. */
export const DropTarget: Story = {
  args: { workspace: workspace() },
  play: async ({ canvasElement }) => {
    for (let i = 0; i < 100; i++) {
      // Again until the target shows: the surface listens once the composer's effects have run.
      const surface = canvasElement.querySelector<HTMLElement>('[data-chat-surface]');
      if (surface?.querySelector('[data-part="attach-drop"]')) return;
      if (surface?.querySelector('[data-part="composer-attach-input"]')) {
        const data = new DataTransfer();
        data.items.add(table());
        surface.dispatchEvent(new DragEvent('dragenter', { dataTransfer: data, bubbles: true, cancelable: true }));
        surface.dispatchEvent(new DragEvent('dragleave', { dataTransfer: data, bubbles: true, cancelable: true }));
        surface.dispatchEvent(new DragEvent('dragenter', { dataTransfer: data, bubbles: true, cancelable: true }));
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  },
};
