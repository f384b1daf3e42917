import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ModelDriver, ModelRequest } from '../../runtime/model';
import { createLocalWorkspace } from '../../workspace/localWorkspace';
import { ChatSurface } from '../chat-surface/ChatSurface';
import { loadUsedParts } from '../chat-surface/loadUsedParts';
import { stubTranscriptLayout, type LayoutStub } from '../testing/layout';

// The queue's list loads on use (with the surface's other parts loaded on use): there before the tests.
beforeAll(() => loadUsedParts());

let layout: LayoutStub;
beforeEach(() => {
  layout = stubTranscriptLayout();
});
afterEach(() => layout.restore());

/** A model whose replies wait until the test lets each one finish (`finish()`), or stop at once when stopped. */
function gatedDriver() {
  const requests: ModelRequest[] = [];
  const gates: (() => void)[] = [];
  const driver: ModelDriver = {
    info: { id: 'gated', label: 'Gated' },
    async *respond(request) {
      requests.push(request);
      const said = request.messages.at(-1);
      yield { type: 'text', text: `On "${said && 'text' in said ? said.text : ''}": ` };
      await new Promise<void>((resolve) => {
        gates.push(resolve);
        request.signal?.addEventListener('abort', () => {
          gates.splice(gates.indexOf(resolve), 1);
          resolve();
        }, { once: true });
      });
      yield { type: 'text', text: 'done.' };
    },
  };
  return {
    driver,
    requests,
    /** The user messages the model was sent, in order. */
    asked: () => requests.map((r) => r.messages.filter((m) => m.role === 'user').at(-1)).map((m) => (m && 'text' in m ? m.text : '')),
    finish: () => gates.shift()?.(),
    waiting: () => gates.length,
  };
}

async function setup() {
  const model = gatedDriver();
  const workspace = createLocalWorkspace({ capabilities: [], driver: model.driver });
  render(<ChatSurface workspace={workspace} theme="light" />);
  const input = screen.getByRole('textbox', { name: 'Message' });
  const say = async (text: string) => {
    await userEvent.clear(input);
    await userEvent.type(input, `${text}{Enter}`);
  };
  return { model, say, input };
}

const queue = () => screen.queryByRole('region', { name: 'Queued messages' });
const userMessages = () => [...document.querySelectorAll('[data-part="message"][data-role="user"] [data-part="message-text"]')].map((el) => el.textContent);

describe('<MessageQueue> while a reply runs', () => {
  it('messages sent during a reply wait under the transcript and are sent after it, in order, each as its own turn', async () => {
    const { model, say, input } = await setup();
    await say('first');
    await waitFor(() => expect(model.waiting()).toBe(1));
    await say('second');
    await say('third');
    const list = queue()!;
    expect(list).toHaveAttribute('data-state', 'waiting');
    expect(within(list).getAllByRole('listitem').map((li) => li.querySelector('[data-part="message-queue-text"]')!.textContent)).toEqual(['second', 'third']);
    expect(within(list).getByRole('status')).toHaveTextContent('2 messages will be sent, in order, when the reply ends.');
    expect(input).toHaveValue('');
    expect(userMessages()).toEqual(['first']);
    expect(model.asked()).toEqual(['first']);

    model.finish();
    await waitFor(() => expect(model.asked()).toEqual(['first', 'second']));
    expect(within(queue()!).getAllByRole('listitem')).toHaveLength(1);
    model.finish();
    await waitFor(() => expect(model.asked()).toEqual(['first', 'second', 'third']));
    await waitFor(() => expect(queue()).toBeNull());
    model.finish();
    await waitFor(() => expect(userMessages()).toEqual(['first', 'second', 'third']));
  });

  it('a queued message can be edited in place (Escape cancels) or removed before it is sent', async () => {
    const { model, say } = await setup();
    await say('first');
    await waitFor(() => expect(model.waiting()).toBe(1));
    await say('secnd');
    await say('third');
    await userEvent.click(screen.getByRole('button', { name: 'Edit: secnd' }));
    const box = screen.getByRole('textbox', { name: 'Edit the queued message' });
    expect(box).toHaveFocus();
    await userEvent.clear(box);
    await userEvent.type(box, 'second');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await userEvent.click(screen.getByRole('button', { name: 'Edit: second' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Edit the queued message' }), ' nope{Escape}');
    await userEvent.click(screen.getByRole('button', { name: 'Remove: third' }));
    expect(within(queue()!).getAllByRole('listitem').map((li) => li.textContent)).toEqual([expect.stringContaining('second')]);

    model.finish();
    await waitFor(() => expect(model.asked()).toEqual(['first', 'second']));
    model.finish();
    await waitFor(() => expect(queue()).toBeNull());
    expect(model.asked()).toEqual(['first', 'second']);
  });

  it('Send now stops the reply and sends that message at once; the others wait for its turn', async () => {
    const { model, say } = await setup();
    await say('first');
    await waitFor(() => expect(model.waiting()).toBe(1));
    await say('second');
    await say('urgent');
    await userEvent.click(screen.getByRole('button', { name: 'Send now: urgent' }));
    await waitFor(() => expect(model.asked()).toEqual(['first', 'urgent']));
    expect(await screen.findByText('Stopped')).toBeInTheDocument();
    expect(within(queue()!).getAllByRole('listitem')).toHaveLength(1);
    model.finish();
    await waitFor(() => expect(model.asked()).toEqual(['first', 'urgent', 'second']));
    model.finish();
    await waitFor(() => expect(queue()).toBeNull());
  });

  it('Stop leaves the queue as it is: nothing is sent until the user sends it', async () => {
    const { model, say } = await setup();
    await say('first');
    await waitFor(() => expect(model.waiting()).toBe(1));
    await say('second');
    await userEvent.click(screen.getByRole('button', { name: 'Stop the reply' }));
    await waitFor(() => expect(queue()).toHaveAttribute('data-state', 'paused'));
    expect(within(queue()!).getByRole('status')).toHaveTextContent('Stopped: 1 message waits until you send it.');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(model.asked()).toEqual(['first']);

    await userEvent.click(screen.getByRole('button', { name: 'Send queued messages' }));
    await waitFor(() => expect(model.asked()).toEqual(['first', 'second']));
    model.finish();
    await waitFor(() => expect(queue()).toBeNull());
  });

  it('a message written after a Stop joins the end of the queue, and the queue goes on in order', async () => {
    const { model, say } = await setup();
    await say('first');
    await waitFor(() => expect(model.waiting()).toBe(1));
    await say('second');
    await userEvent.click(screen.getByRole('button', { name: 'Stop the reply' }));
    await waitFor(() => expect(queue()).toHaveAttribute('data-state', 'paused'));
    await say('third');
    await waitFor(() => expect(model.asked()).toEqual(['first', 'second']));
    model.finish();
    await waitFor(() => expect(model.asked()).toEqual(['first', 'second', 'third']));
  });
});
