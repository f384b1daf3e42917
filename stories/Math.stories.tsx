import type { Meta, StoryObj } from '@storybook/react-vite';
import { ChatSurface } from '../src';
import type { ThreadEventInput } from '../src/runtime';
import type { ScriptedWorkspace } from '../src/components/testing/scriptedWorkspace';
import { scriptedStory } from './scripted';

type Args = { workspace: ScriptedWorkspace; theme?: 'light' | 'dark' };

/**
 * Math in assistant replies (`$…$`, `$$…$$`), rendered by KaTeX with MathML for screen readers.
 * KaTeX (with its stylesheet and fonts) is fetched the first time a formula shows; until it
 * arrives, a formula shows its source as typed. A price such as "$5 and $10" stays text.
 */
const meta = {
  title: 'Math',
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

const formulas = (): ThreadEventInput[] => [
  user('u1', 'How do I get the variance of the import batches, and what does the plan cost?'),
  ...reply(
    'a1',
    [
      'For $n$ batches of sizes $x_1, \\dots, x_n$ with mean $\\bar{x}$, the sample variance is',
      '',
      '$$',
      's^2 = \\frac{1}{n - 1} \\sum_{i=1}^{n} \\left( x_i - \\bar{x} \\right)^2',
      '$$',
      '',
      'and the standard deviation is $s = \\sqrt{s^2}$. A batch is an outlier when $|x_i - \\bar{x}| > 2s$.',
      '',
      'The plan costs $5 a month and $10 with the archive (those are prices, not formulas).',
      '',
      '$$\\int_0^1 x^2 \\, dx = \\frac{1}{3}$$',
    ].join('\n'),
  ),
];

/** Inline math in a sentence, a `$$` block, a block written on one line, and prices that stay text. */
export const InlineAndBlock: Story = { args: { workspace: scriptedStory(formulas()) } };

/** The same reply in the dark theme. */
export const InlineAndBlockDark: Story = { args: { workspace: scriptedStory(formulas()), theme: 'dark' } };

const streaming = (): ThreadEventInput[] => [
  user('u1', 'Derive the area of a circle.'),
  ...reply('a1', ['Cut the disc into thin rings of radius $r$ and width $dr$; each has area $2\\pi r\\,dr$, so', '', '$$', 'A = \\int_0^R 2\\pi r \\, dr'].join('\n'), false),
];

/**
 * A reply still streaming: its inline formulas are rendered, the `$$` block whose closing `$$`
 * has not come shows its source until it closes. Sending streams a reply with a long `$$` block.
 */
export const Streaming: Story = { args: { workspace: scriptedStory(streaming(), { onSend: (_text, api) => streamMath(api) }) } };

/** The streaming reply in the dark theme. */
export const StreamingDark: Story = { args: { workspace: scriptedStory(streaming(), { onSend: (_text, api) => streamMath(api) }), theme: 'dark' } };

const broken = (): ThreadEventInput[] => [
  user('u1', 'Write the quadratic formula, and a link in TeX.'),
  ...reply(
    'a1',
    [
      'The roots are $x = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a$ (a brace is missing there, so it shows as written).',
      '',
      '$$',
      '\\begin{pmatrix} a & b \\\\ c & d',
      '$$',
      '',
      'A link in a formula is not made: $\\href{javascript:alert(1)}{click}$.',
    ].join('\n'),
  ),
];

/** Formulas KaTeX cannot parse show their source in a `code` element titled with why; `\href` makes no link. */
export const FormulaError: Story = { args: { workspace: scriptedStory(broken()) } };

/** The errors in the dark theme. */
export const FormulaErrorDark: Story = { args: { workspace: scriptedStory(broken()), theme: 'dark' } };

/** Streams a reply with a long aligned derivation, a line at a time: its source while the `$$` block is open, rendered once it closes. */
async function streamMath(api: { emit(event: ThreadEventInput): void; signal: AbortSignal; turnId: string }, lines = 24, delayMs = 60) {
  const id = `reply-${api.turnId}`;
  api.emit({ type: 'message.created', message_id: id, role: 'assistant', text: 'Summing $k$ from $1$ to $n$, term by term:\n\n$$\n\\begin{aligned}\n', turn_id: api.turnId, driver });
  for (let k = 1; k <= lines && !api.signal.aborted; k++) {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    api.emit({ type: 'message.delta', message_id: id, delta: `S_{${k}} &= S_{${k - 1}} + ${k} = ${(k * (k + 1)) / 2} \\\\\n` });
  }
  api.emit({ type: 'message.delta', message_id: id, delta: '\\end{aligned}\n$$\n\nSo $S_n = \\frac{n(n+1)}{2}$.' });
  api.emit({ type: 'message.done', message_id: id });
}
