import type { Meta, StoryObj } from '@storybook/react-vite';
import { CastRow, ChatSurface } from '../src';
import type { ScriptedWorkspace } from '../src/components/testing/scriptedWorkspace';
import type { ThreadEventInput } from '../src/runtime';
import { scriptedStory } from './scripted';

type Args = { workspace: ScriptedWorkspace; max?: number };

const meta = {
  title: 'CastRow',
  render: (args) => (
    <ChatSurface.Root workspace={args.workspace} theme="light">
      <CastRow {...(args.max !== undefined ? { max: args.max } : {})} />
    </ChatSurface.Root>
  ),
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

const actors = [
  { id: 'enricher', name: 'Enricher', glyph: 'E' },
  { id: 'analyst', name: 'Analyst', glyph: 'A' },
  { id: 'importer', name: 'Importer', glyph: 'I' },
  { id: 'mailer', name: 'Mailer', glyph: 'M' },
  { id: 'archivist', name: 'Archivist', glyph: 'R' },
];

function working(count: number, streaming: boolean): ThreadEventInput[] {
  const events: ThreadEventInput[] = actors.slice(0, count).flatMap((actor, i): ThreadEventInput[] => [
    { type: 'capability.started', invocation_id: `inv${i}`, capability: `${actor.id}.run`, title: `Task ${i + 1}`, args: {}, actor },
    ...(i % 2 === 0 ? [{ type: 'capability.progress', invocation_id: `inv${i}`, progress: i + 1, total: 6, message: 'Working' } as ThreadEventInput] : []),
  ]);
  if (streaming) events.push({ type: 'message.created', message_id: 'a1', role: 'assistant', text: 'Working on it', driver: { id: 'offline', label: 'Offline model' } });
  return events;
}

/** Two actors at work, one with a known total. */
export const TwoActors: Story = { args: { workspace: scriptedStory(working(2, false)) } };
/** The assistant writing while five actors work: past `max` they collapse into "+N". */
export const Overflow: Story = { args: { workspace: scriptedStory(working(5, true)), max: 4 } };
