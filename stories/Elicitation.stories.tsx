import type { Meta, StoryObj } from '@storybook/react-vite';
import { ChatSurface } from '../src';
import type { ScriptedWorkspace } from '../src/components/testing/scriptedWorkspace';
import type { ThreadEventInput } from '../src/runtime';
import { scriptedStory } from './scripted';

type Args = { workspace: ScriptedWorkspace };

/** A running MCP tool's question (elicitation) as a row of the chat; the scripted workspace's decisions write the real answer events. */
const meta = {
  title: 'Rows/Elicitation',
  render: (args) => (
    <div style={{ height: 640 }}>
      <ChatSurface workspace={args.workspace} theme="light" />
    </div>
  ),
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

/** The fields of a form, one of each kind MCP forms have. */
const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Full name', description: 'As it appears on the contract.' },
    email: { type: 'string', format: 'email', title: 'Email' },
    seats: { type: 'integer', title: 'Seats', minimum: 1, maximum: 50, default: 5 },
    plan: { type: 'string', title: 'Plan', oneOf: [{ const: 'team', title: 'Team' }, { const: 'business', title: 'Business' }], default: 'team' },
    addons: { type: 'array', title: 'Add-ons', items: { type: 'string', enum: ['sso', 'audit'] } },
    terms: { type: 'boolean', title: 'I accept the terms' },
  },
  required: ['name', 'email'],
};

const asked = (mode: 'form' | 'url'): ThreadEventInput[] => [
  { type: 'message.created', message_id: 'u1', role: 'user', text: mode === 'form' ? 'Open a CRM account for Ada' : 'Connect my calendar', turn_id: 't1' },
  { type: 'turn.started', turn_id: 't1' },
  { type: 'capability.started', invocation_id: 'inv1', capability: mode === 'form' ? 'crm.open_account' : 'calendar.connect', title: mode === 'form' ? 'Open account' : 'Connect calendar', args: {}, turn_id: 't1' },
  mode === 'form'
    ? { type: 'elicitation.requested', elicitation_id: 'e1', server: 'crm', tool: 'open_account', invocation_id: 'inv1', turn_id: 't1', mode: 'form', message: 'Who is the account for?', requested_schema: schema }
    : {
        type: 'elicitation.requested',
        elicitation_id: 'e1',
        server: 'calendar',
        tool: 'connect',
        invocation_id: 'inv1',
        turn_id: 't1',
        mode: 'url',
        message: 'Sign in to your calendar to let it read your free times.',
        url: 'https://accounts.example.com/consent?client=calendar',
        host: 'accounts.example.com',
      },
];

/** A form waiting for the user: every field kind, required ones marked, the server's defaults filled in. */
export const Form: Story = { args: { workspace: scriptedStory(asked('form')) } };
/** A page to open: the server's name and the link's host shown; it opens only when chosen; Done or Cancel. */
export const Url: Story = { args: { workspace: scriptedStory(asked('url')) } };
/** A sent form: what went to the server, by the fields' labels. */
export const FormAnswered: Story = {
  args: {
    workspace: scriptedStory([
      ...asked('form'),
      { type: 'elicitation.answered', elicitation_id: 'e1', action: 'accept', content: { name: 'Ada Lovelace', email: 'ada@example.com', seats: 5, plan: 'business', addons: ['sso'], terms: true } },
    ]),
  },
};
/** A form the user declined: no values went to the server. */
export const FormDeclined: Story = { args: { workspace: scriptedStory([...asked('form'), { type: 'elicitation.answered', elicitation_id: 'e1', action: 'decline' }]) } };
/** A question whose call ended before anyone answered: closed, and it says so. */
export const Closed: Story = {
  args: { workspace: scriptedStory([...asked('form'), { type: 'elicitation.answered', elicitation_id: 'e1', action: 'cancel', closed: 'call_ended' }]) },
};
/** A page the user finished on. */
export const UrlDone: Story = { args: { workspace: scriptedStory([...asked('url'), { type: 'elicitation.answered', elicitation_id: 'e1', action: 'accept' }]) } };
