import { HttpAgent } from '@ag-ui/client';
import type { BaseEvent, RunAgentInput } from '@ag-ui/core';
import { EventEncoder } from '@ag-ui/encoder';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { z } from 'zod';
import { ChatSurface, type WorkspaceAdapter } from '../src';
import { createAgUiWorkspace } from '../src/ag-ui';
import { defineCapability, textResult } from '../src/runtime';
import { scriptedAgentEvents } from '../src/test/agUiScript';

/**
 * An AG-UI agent in the page: `@ag-ui/client`'s HttpAgent talks to a fetch
 * that answers like an AG-UI server, its events encoded by `@ag-ui/encoder`
 * and sent one every 80 ms (so replies visibly stream). Say `hello`,
 * `note buy milk` (a frontend tool: the page's Add note), `deploy` (a tool
 * call and an approval interrupt) or `pick` (a question).
 */
function inPageAgent(): (url: string, init: RequestInit) => Promise<Response> {
  return async (_url, init) => {
    const input = JSON.parse(String(init.body)) as RunAgentInput;
    const encoder = new EventEncoder({ accept: 'text/event-stream' });
    const events = scriptedAgentEvents(input);
    const bytes = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        for (const event of events) {
          controller.enqueue(bytes.encode(encoder.encode(event as unknown as BaseEvent)));
          await new Promise((resolve) => setTimeout(resolve, 80));
        }
        controller.close();
      },
    });
    return new Response(body, { headers: { 'content-type': encoder.getContentType() } });
  };
}

const notes: string[] = [];
const addNote = defineCapability({
  name: 'notes.add',
  title: 'Add note',
  description: 'Saves a short note.',
  kind: 'mutate',
  input: z.object({ text: z.string().min(1) }),
  handler: ({ text }) => {
    notes.push(text);
    return textResult(`Saved “${text}”.`);
  },
});

function agUiWorkspace(): WorkspaceAdapter {
  const fetchAgent = inPageAgent();
  return createAgUiWorkspace({
    agent: (threadId) => new HttpAgent({ url: 'https://agent.example/awp', threadId, fetch: (url, init) => fetchAgent(url, init) }),
    capabilities: [addNote],
    driver: { id: 'ag-ui', label: 'AG-UI agent' },
  });
}

type Args = { workspace: WorkspaceAdapter };
const meta = {
  title: 'AG-UI',
  render: (args) => (
    <div style={{ height: 560 }}>
      <ChatSurface workspace={args.workspace} theme="light" />
    </div>
  ),
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

/** `<ChatSurface>` on an AG-UI agent. */
export const Agent: Story = { args: { workspace: agUiWorkspace() } };
