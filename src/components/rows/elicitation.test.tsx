import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ThreadEventInput } from '../../runtime/events';
import { ChatSurface } from '../chat-surface/ChatSurface';
import { stubTranscriptLayout, type LayoutStub } from '../testing/layout';
import { scriptedWorkspace } from '../testing/scriptedWorkspace';

let layout: LayoutStub;
beforeEach(() => {
  layout = stubTranscriptLayout();
});
afterEach(() => layout.restore());

function setup() {
  const ws = scriptedWorkspace();
  render(<ChatSurface workspace={ws} theme="light" />);
  const emit = (event: ThreadEventInput) => act(() => void ws.log.emit(event));
  return { ws, emit };
}

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Full name', description: 'As on the contract.' },
    email: { type: 'string', format: 'email', title: 'Email' },
    seats: { type: 'integer', title: 'Seats', minimum: 1, maximum: 50, default: 5 },
    plan: { type: 'string', title: 'Plan', oneOf: [{ const: 'team', title: 'Team' }, { const: 'business', title: 'Business' }] },
    addons: { type: 'array', title: 'Add-ons', items: { type: 'string', enum: ['sso', 'audit'] } },
    terms: { type: 'boolean', title: 'I accept the terms' },
  },
  required: ['name', 'email'],
};

const form: ThreadEventInput = { type: 'elicitation.requested', elicitation_id: 'e1', server: 'crm', tool: 'open_account', mode: 'form', message: 'Who is the account for?', requested_schema: schema };

describe('a form elicitation row', () => {
  it('shows the server, a real form with required fields marked and defaults, and checks it in words before sending', async () => {
    const { ws, emit } = setup();
    emit(form);
    const row = await screen.findByRole('article', { name: 'Who is the account for?' });
    expect(row).toHaveAttribute('data-state', 'pending');
    expect(row).toHaveAttribute('data-mode', 'form');
    expect(row).toHaveTextContent('From the MCP server "crm", while open_account runs.');
    const answer = within(row).getByRole('form', { name: 'Answer for crm' });
    const name = within(answer).getByRole('textbox', { name: 'Full name (required)' });
    expect(name).toHaveAttribute('aria-required', 'true');
    expect(name).toHaveAccessibleDescription('As on the contract.');
    expect(within(answer).getByRole('textbox', { name: 'Email (required)' })).toHaveAttribute('type', 'email');
    expect(within(answer).getByRole('textbox', { name: 'Seats' })).toHaveValue('5');
    expect(within(answer).getByRole('combobox', { name: 'Plan' })).toHaveValue('');
    expect(within(answer).getByRole('group', { name: 'Add-ons' })).toBeInTheDocument();
    expect(within(answer).getByRole('checkbox', { name: 'I accept the terms' })).not.toBeChecked();

    // Bad input: said by each field, the first one focused, nothing sent, nothing typed lost.
    await userEvent.type(within(answer).getByRole('textbox', { name: 'Email (required)' }), 'not-an-email');
    await userEvent.clear(within(answer).getByRole('textbox', { name: 'Seats' }));
    await userEvent.type(within(answer).getByRole('textbox', { name: 'Seats' }), 'lots');
    await userEvent.click(within(answer).getByRole('button', { name: 'Submit' }));
    const alert = within(answer).getByRole('alert');
    expect(alert).toHaveTextContent('3 fields need a change before this can be sent:');
    expect(alert).toHaveTextContent('Full name is required.');
    expect(alert).toHaveTextContent('Email must be an email address, such as name@example.com.');
    expect(alert).toHaveTextContent('Seats must be a number.');
    expect(name).toHaveFocus();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription('As on the contract. Full name is required.');
    expect(within(answer).getByRole('textbox', { name: 'Email (required)' })).toHaveValue('not-an-email');
    expect(ws.decisions).toEqual([]);

    await userEvent.type(name, 'Ada Lovelace');
    const email = within(answer).getByRole('textbox', { name: 'Email (required)' });
    await userEvent.clear(email);
    await userEvent.type(email, 'ada@example.com');
    const seats = within(answer).getByRole('textbox', { name: 'Seats' });
    await userEvent.clear(seats);
    await userEvent.type(seats, '12');
    await userEvent.selectOptions(within(answer).getByRole('combobox', { name: 'Plan' }), 'Business');
    await userEvent.click(within(answer).getByRole('checkbox', { name: 'sso' }));
    await userEvent.click(within(answer).getByRole('checkbox', { name: 'I accept the terms' }));
    await userEvent.click(within(answer).getByRole('button', { name: 'Submit' }));

    await waitFor(() => expect(row).toHaveAttribute('data-state', 'accepted'));
    expect(JSON.parse(ws.decisions[0]!.answer!)).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com', seats: 12, plan: 'business', addons: ['sso'], terms: true });
    expect(ws.decisions[0]).toMatchObject({ id: 'e1', decision: 'answer' });
    expect(row).toHaveTextContent('You sent your answer to crm.');
    // What went, by the fields' labels and the choices' words.
    expect(within(row).getByText('Plan').nextSibling).toHaveTextContent('Business');
    expect(within(row).getByText('I accept the terms').nextSibling).toHaveTextContent('Yes');
    expect(within(row).queryByRole('form')).toBeNull();
  });

  it('Decline and Cancel send no values', async () => {
    const { ws, emit } = setup();
    emit(form);
    const row = await screen.findByRole('article', { name: 'Who is the account for?' });
    await userEvent.click(within(row).getByRole('button', { name: 'Decline' }));
    await waitFor(() => expect(row).toHaveAttribute('data-state', 'declined'));
    expect(row).toHaveTextContent('You declined.');
    expect(ws.decisions).toEqual([{ threadId: expect.any(String), id: 'e1', decision: 'deny' }]);

    emit({ ...form, elicitation_id: 'e2', message: 'And the billing contact?' } as ThreadEventInput);
    const second = await screen.findByRole('article', { name: 'And the billing contact?' });
    await userEvent.click(within(second).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(second).toHaveAttribute('data-state', 'cancelled'));
    expect(ws.decisions.at(-1)).toMatchObject({ id: 'e2', decision: 'dismiss' });
  });

  it('a question whose call ended is closed and says so, with no form', async () => {
    const { emit } = setup();
    emit(form);
    emit({ type: 'elicitation.answered', elicitation_id: 'e1', action: 'cancel', closed: 'call_ended' });
    const row = await screen.findByRole('article', { name: 'Who is the account for?' });
    expect(row).toHaveAttribute('data-state', 'closed');
    expect(row).toHaveTextContent('Closed: the call ended before you answered.');
    expect(within(row).queryByRole('form')).toBeNull();
  });
});

describe('axe (jsdom: structure and names; colour contrast is checked by the stories)', () => {
  it('a form with its issues shown, and a URL question, pass', async () => {
    const { emit } = setup();
    emit(form);
    emit({ type: 'elicitation.requested', elicitation_id: 'u1', server: 'calendar', mode: 'url', message: 'Sign in to continue.', url: 'https://accounts.example.com/consent', host: 'accounts.example.com' });
    const row = await screen.findByRole('article', { name: 'Who is the account for?' });
    await screen.findByRole('article', { name: 'Sign in to continue.' });
    await userEvent.click(within(row).getByRole('button', { name: 'Submit' }));
    await within(row).findByRole('alert');
    const results = await axe.run(row.closest('[data-chat-surface]') ?? document.body, { rules: { 'color-contrast': { enabled: false } } });
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 80)).join(' | ')}`)).toEqual([]);
  });
});

describe('a URL elicitation row', () => {
  it('is a link with the server and the host, opened only when chosen; Done accepts, Cancel dismisses', async () => {
    const open = vi.spyOn(window, 'open');
    const { ws, emit } = setup();
    emit({ type: 'elicitation.requested', elicitation_id: 'u1', server: 'calendar', mode: 'url', message: 'Sign in to continue.', url: 'https://accounts.example.com/consent?x=1', host: 'accounts.example.com' });
    const row = await screen.findByRole('article', { name: 'Sign in to continue.' });
    expect(row).toHaveAttribute('data-mode', 'url');
    expect(row).toHaveTextContent('"calendar" asks you to open a page on accounts.example.com.');
    const link = within(row).getByRole('link', { name: 'Open accounts.example.com' });
    expect(link).toHaveAttribute('href', 'https://accounts.example.com/consent?x=1');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(open).not.toHaveBeenCalled();
    await userEvent.click(within(row).getByRole('button', { name: 'Done Sign in to continue.' }));
    await waitFor(() => expect(row).toHaveAttribute('data-state', 'accepted'));
    expect(ws.decisions.at(-1)).toMatchObject({ id: 'u1', decision: 'accept' });
    expect(row).toHaveTextContent('You said you finished on accounts.example.com.');
    open.mockRestore();
  });
});
