import type { Meta, StoryObj } from '@storybook/react-vite';
import type { CSSProperties } from 'react';
import { ChatSurface, type CapabilityRenderer } from '../src';
import { textResult, type ThreadEventInput } from '../src/runtime';
import type { ScriptedWorkspace } from '../src/components/testing/scriptedWorkspace';
import { scriptedStory } from './scripted';

// A host renderer gets a call's arguments while the model writes them (issue 41 item 5): the card
// shows before the call runs, "Writing arguments…", the renderer drawing the filters written so far.

type Args = { workspace: ScriptedWorkspace; theme?: 'light' | 'dark' };

interface SearchArgs {
  stage?: string;
  company?: string;
  limit?: number;
}
interface SearchResult {
  records: { name: string; company: string }[];
}

const cell: CSSProperties = { padding: '4px 8px', borderBottom: '1px solid var(--cs-border)', textAlign: 'start' };

/** The search's filters as they are written, then its rows once it has run. */
const RecordSearch: CapabilityRenderer<SearchArgs | undefined, SearchResult> = ({ args, writing, result }) => {
  const filters = Object.entries(args ?? {}).map(([key, value]) => `${key}: ${String(value)}`);
  if (writing || !result) {
    return (
      <p data-testid="search-filters" style={{ margin: 0 }}>
        {filters.length ? `Searching records where ${filters.join(', ')}` : 'Choosing filters…'}
      </p>
    );
  }
  const records = result.structured?.records ?? [];
  return (
    <table style={{ borderCollapse: 'collapse', width: '100%', fontSize: 13 }}>
      <caption style={{ textAlign: 'start', fontWeight: 600, paddingBottom: 4 }}>{`${records.length} records where ${filters.join(', ')}`}</caption>
      <thead>
        <tr>
          <th scope="col" style={cell}>Name</th>
          <th scope="col" style={cell}>Company</th>
        </tr>
      </thead>
      <tbody>
        {records.map((r) => (
          <tr key={r.name}>
            <td style={cell}>{r.name}</td>
            <td style={cell}>{r.company}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
};

const renderers = { 'records.search': RecordSearch };

const meta = {
  title: 'Writing arguments',
  render: (args) => (
    <div style={{ height: 560 }}>
      <ChatSurface workspace={args.workspace} theme={args.theme ?? 'light'} renderers={renderers} />
    </div>
  ),
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

const driver = { id: 'anthropic', label: 'Claude' };
const ARGS = '{"stage": "lead", "company": "Acme", "limit": 20}';
const piece = (invocation: string, delta: string): ThreadEventInput => ({ type: 'invocation.args.delta', invocation_id: invocation, call_id: `toolu_${invocation}`, capability: 'records.search', title: 'Search records', turn_id: 't1', delta });

const midway = (): ThreadEventInput[] => [
  { type: 'message.created', message_id: 'u1', role: 'user', text: 'Find the Acme leads.' },
  { type: 'turn.started', turn_id: 't1' },
  { type: 'message.created', message_id: 'a1', role: 'assistant', text: 'Searching the records.', turn_id: 't1', driver },
  { type: 'message.done', message_id: 'a1' },
  piece('inv1', '{"stage": "lead", "comp'),
];

/** The model is writing the call: its card says "Writing arguments…", the renderer shows the filters written so far. */
export const Midway: Story = { args: { workspace: scriptedStory(midway()) } };

/** The same, in the dark theme. */
export const MidwayDark: Story = { args: { workspace: scriptedStory(midway()), theme: 'dark' } };

const records = [
  { name: 'Ada Lovelace', company: 'Acme' },
  { name: 'Grace Hopper', company: 'Acme' },
];

/** Sending streams a call's arguments a few characters a frame, then runs it: the same card, now with its rows. */
export const Streaming: Story = {
  args: {
    workspace: scriptedStory(midway().slice(0, 1), {
      onSend: async (_text, api) => {
        const id = `inv-${api.turnId}`;
        const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
        for (let at = 0; at < ARGS.length && !api.signal.aborted; at += 4) {
          api.emit({ ...piece(id, ARGS.slice(at, at + 4)), call_id: `toolu_${api.turnId}`, turn_id: api.turnId } as ThreadEventInput);
          await wait(60);
        }
        const args = JSON.parse(ARGS) as SearchArgs;
        api.emit({ type: 'capability.started', invocation_id: id, call_id: `toolu_${api.turnId}`, capability: 'records.search', title: 'Search records', args, turn_id: api.turnId });
        await wait(300);
        api.emit({ type: 'capability.done', invocation_id: id, result: textResult(`${records.length} records.`, { records }) });
      },
    }),
  },
};
