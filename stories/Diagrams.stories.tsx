import type { Meta, StoryObj } from '@storybook/react-vite';
import { ChatSurface } from '../src';
import type { ThreadEventInput } from '../src/runtime';
import { mermaidChunk, resetMermaid } from '../src/components/markdown/loadMermaid';
import { MissingPeerError } from '../src/runtime/peers';
import type { ScriptedWorkspace } from '../src/components/testing/scriptedWorkspace';
import { scriptedStory } from './scripted';

type Args = { workspace: ScriptedWorkspace; theme?: 'light' | 'dark' };

/** The real loader (mermaid is installed here, as a devDependency); the "absent" stories replace it. */
const installed = mermaidChunk.load;
const withMermaid = (present: boolean) => async () => {
  mermaidChunk.load = present ? installed : () => Promise.reject(new MissingPeerError('mermaid', new Error('Could not resolve "mermaid"')));
  resetMermaid();
  return {};
};

/**
 * ```mermaid fences in assistant replies, drawn by the optional peer `mermaid` (fetched the first
 * time a reply shows one) with `securityLevel: 'strict'`, the SVG inside a frame sandboxed without
 * scripts that loads nothing. The source shows while the fence is written, and stays (with a plain
 * note) when the diagram cannot be drawn or mermaid is not installed.
 */
const meta = {
  title: 'Diagrams',
  render: (args) => (
    <div style={{ height: 640 }}>
      <ChatSurface workspace={args.workspace} theme={args.theme ?? 'light'} />
    </div>
  ),
  loaders: [withMermaid(true)],
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

const driver = { id: 'offline', label: 'Offline model' };
const user = (id: string, text: string): ThreadEventInput => ({ type: 'message.created', message_id: id, role: 'user', text });
const reply = (id: string, text: string, done = true): ThreadEventInput[] => [
  { type: 'message.created', message_id: id, role: 'assistant', text, driver },
  ...(done ? [{ type: 'message.done' as const, message_id: id }] : []),
];

const FLOW = ['flowchart LR', '  A[customers.csv] --> B{Valid rows?}', '  B -- yes --> C[Import]', '  B -- no --> D[Report the bad rows]', '  C --> E[Check: count matches]'].join('\n');

const drawn = (): ThreadEventInput[] => [
  user('u1', 'How does an import run?'),
  ...reply('a1', ['An import reads the file, checks each row, and checks the count afterwards:', '', '```mermaid', FLOW, '```', '', 'A failed check shows on the card.'].join('\n')),
];

/** A flowchart drawn in its sandboxed frame, with "Show source" under it. */
export const Drawn: Story = { args: { workspace: scriptedStory(drawn()) } };

/** The same in the dark theme (mermaid's dark theme). */
export const DrawnDark: Story = { args: { workspace: scriptedStory(drawn()), theme: 'dark' } };

const hostile = (): ThreadEventInput[] => [
  user('u1', 'Show the import with a link.'),
  ...reply(
    'a1',
    ['Here:', '', '```mermaid', 'flowchart LR', '  A["<img src=x onerror=window.parent.__diagramRan=1>Import"] --> B[Check]', '  click A href "javascript:window.parent.__diagramRan=1"', '  click B call alert(1)', '```'].join('\n'),
  ),
];

/** A diagram whose text tries to run script (an HTML label, `javascript:` and `call` clicks): drawn, and nothing runs. */
export const HostileText: Story = { args: { workspace: scriptedStory(hostile()) } };

const broken = (): ThreadEventInput[] => [
  user('u1', 'Draw the import as a diagram.'),
  ...reply('a1', ['Here it is:', '', '```mermaid', 'flowchart LR', '  A[Read the file] --> ', '  --> ??', '```'].join('\n')),
];

/** A diagram mermaid cannot parse: its source as code, and why in plain words. */
export const Failed: Story = { args: { workspace: scriptedStory(broken()) } };

/** A page without mermaid installed: the fence stays code, with a note. */
export const Absent: Story = { args: { workspace: scriptedStory(drawn()) }, loaders: [withMermaid(false)] };

/** Absent, in the dark theme. */
export const AbsentDark: Story = { args: { workspace: scriptedStory(drawn()), theme: 'dark' }, loaders: [withMermaid(false)] };

const streaming = (): ThreadEventInput[] => [
  user('u1', 'Sketch how a reply reaches the page.'),
  ...reply('a1', ['Like this:', '', '```mermaid', 'sequenceDiagram', '  User->>Surface: send', '  Surface->>Server: POST /turns'].join('\n'), false),
];

/** A reply still writing its fence: the source shows as code until the fence closes. Sending streams a diagram line by line. */
export const Writing: Story = { args: { workspace: scriptedStory(streaming(), { onSend: (_text, api) => streamDiagram(api) }) } };

/** Streams a sequence diagram a line at a time, then closes the fence: source first, drawn once closed. */
async function streamDiagram(api: { emit(event: ThreadEventInput): void; signal: AbortSignal; turnId: string }, delayMs = 80) {
  const id = `reply-${api.turnId}`;
  api.emit({ type: 'message.created', message_id: id, role: 'assistant', text: 'The round trip:\n\n```mermaid\nsequenceDiagram\n', turn_id: api.turnId, driver });
  for (const line of ['  User->>Surface: send', '  Surface->>Server: POST /turns', '  Server->>Model: request', '  Model-->>Server: streamed reply', '  Server-->>Surface: events', '  Surface-->>User: the reply, as it comes']) {
    if (api.signal.aborted) return;
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    api.emit({ type: 'message.delta', message_id: id, delta: `${line}\n` });
  }
  api.emit({ type: 'message.delta', message_id: id, delta: '```\n\nEach event is folded once.' });
  api.emit({ type: 'message.done', message_id: id });
}
