import type { Meta, StoryObj } from '@storybook/react-vite';
import { ChatSurface } from '../src';
import type { ThreadEventInput } from '../src/runtime';
import type { ScriptedWorkspace } from '../src/components/testing/scriptedWorkspace';
import { scriptedStory } from './scripted';

type Args = { workspace: ScriptedWorkspace; theme?: 'light' | 'dark' };

/**
 * Fenced code in assistant replies, highlighted by lowlight (its `common` languages), which is
 * fetched the first time a code block names a language. Until it arrives the code is plain text.
 */
const meta = {
  title: 'Code highlighting',
  render: (args) => (
    <div style={{ height: 620 }}>
      <ChatSurface workspace={args.workspace} theme={args.theme ?? 'light'} />
    </div>
  ),
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

const driver = { id: 'offline', label: 'Offline model' };
const user = (id: string, text: string): ThreadEventInput => ({ type: 'message.created', message_id: id, role: 'user', text });
const reply = (id: string, text: string, done = true): ThreadEventInput[] => [
  { type: 'message.created', message_id: id, role: 'assistant', text, driver },
  ...(done ? [{ type: 'message.done' as const, message_id: id }] : []),
];

const fence = (language: string, lines: string[]) => ['```' + language, ...lines, '```'].join('\n');

const typescript = fence('ts', [
  "import { readFile } from 'node:fs/promises';",
  '',
  '/** Counts the records of a CSV file (header excluded). */',
  'export async function countRecords(path: string): Promise<number> {',
  "  const text = await readFile(path, 'utf8');",
  "  return text.split('\\n').filter(Boolean).length - 1;",
  '}',
]);
const python = fence('python', [
  'import csv',
  '',
  'def count_records(path: str) -> int:',
  '    """Counts the rows of a CSV file, header excluded."""',
  '    with open(path, newline="") as f:',
  '        return sum(1 for _ in csv.reader(f)) - 1  # the header',
]);
const json = fence('json', ['{', '  "file": "contacts.csv",', '  "limit": 100,', '  "dryRun": true,', '  "columns": ["name", "email", null]', '}']);
const bash = fence('bash', ['# import, then count', 'npm run import -- contacts.csv --limit=100', 'echo "imported $(wc -l < contacts.csv) rows"']);

const languages = (): ThreadEventInput[] => [
  user('u1', 'Show me how to count the records of an import, in a few languages.'),
  ...reply('a1', ['In **TypeScript**:', '', typescript, '', 'In **Python**:', '', python, '', 'The import takes its options as JSON:', '', json, '', 'And from a shell:', '', bash].join('\n')),
];

/** TypeScript, Python, JSON and bash, highlighted (`data-state="highlighted"` on each `code-block`). */
export const Languages: Story = { args: { workspace: scriptedStory(languages()) } };

/** The same reply in the dark theme. */
export const LanguagesDark: Story = { args: { workspace: scriptedStory(languages()), theme: 'dark' } };

const streaming = (): ThreadEventInput[] => [
  user('u1', 'Write the count in TypeScript, then in Python.'),
  ...reply('a1', ['Here is the TypeScript:', '', typescript, '', 'And the Python, still being written:', '', '```python', 'import csv', '', 'def count_records(path: str) -> int:', '    with open(path'].join('\n'), false),
];

/**
 * A reply still streaming: its finished block is highlighted, the block whose fence is still open
 * stays plain until its closing fence comes (or the reply ends). Sending streams a long code block.
 */
export const Streaming: Story = { args: { workspace: scriptedStory(streaming(), { onSend: (_text, api) => streamCode(api) }) } };

/** The streaming reply in the dark theme. */
export const StreamingDark: Story = { args: { workspace: scriptedStory(streaming(), { onSend: (_text, api) => streamCode(api) }), theme: 'dark' } };

const unknown = (): ThreadEventInput[] => [
  user('u1', 'Say hello in Klingon, and show the raw log line.'),
  ...reply('a1', ['A greeting:', '', fence('klingon', ['nuqneH! qaStaH nuq?']), '', 'The log line, as it was written:', '', fence('', ['2026-12-01T09:00:00Z import row 1: skipped, email missing'])].join('\n')),
];

/** A language lowlight does not know, and a fence with none: both stay plain text (`data-state="plain"`). */
export const UnknownLanguage: Story = { args: { workspace: scriptedStory(unknown()) } };

/** The unknown language in the dark theme. */
export const UnknownLanguageDark: Story = { args: { workspace: scriptedStory(unknown()), theme: 'dark' } };

/** Streams a reply with a long TypeScript block a few lines at a time: plain while its fence is open, highlighted once it closes. */
async function streamCode(api: { emit(event: ThreadEventInput): void; signal: AbortSignal; turnId: string }, lines = 400, delayMs = 16) {
  const id = `reply-${api.turnId}`;
  api.emit({ type: 'message.created', message_id: id, role: 'assistant', text: 'A long generated table of records:\n\n```ts\nexport const records = [\n', turn_id: api.turnId, driver });
  for (let i = 0; i < lines && !api.signal.aborted; i += 4) {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    let delta = '';
    for (let k = i; k < Math.min(lines, i + 4); k++) delta += `  { id: ${k}, name: 'Record ${k}', active: ${k % 3 !== 0} }, // row ${k}\n`;
    api.emit({ type: 'message.delta', message_id: id, delta });
  }
  api.emit({ type: 'message.delta', message_id: id, delta: '];\n```\n\nThat is every record.' });
  api.emit({ type: 'message.done', message_id: id });
}
