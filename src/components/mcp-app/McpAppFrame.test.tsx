import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { McpAppResource } from '../../runtime/mcpApp';
import { McpAppFrame, type AppBridgeModule } from './McpAppFrame';

/** A stand-in for ext-apps' AppBridge that records what the frame does with it (the real one is exercised in e2e/mcp-app.spec.ts). */
function fakeBridge() {
  const calls: string[] = [];
  const bridges: FakeBridge[] = [];
  class FakeBridge {
    oninitialized?: () => void;
    onsizechange?: (p: { height?: number }) => void;
    oncalltool?: (p: { name: string; arguments?: Record<string, unknown> }) => Promise<unknown>;
    onopenlink?: unknown;
    onmessage?: unknown;
    onloggingmessage?: unknown;
    onrequestteardown?: unknown;
    constructor(
      readonly client: null,
      readonly hostInfo: unknown,
      readonly capabilities: Record<string, unknown>,
    ) {
      bridges.push(this);
    }
    async connect() {
      calls.push('connect');
    }
    async sendToolInput(p: unknown) {
      calls.push(`input ${JSON.stringify(p)}`);
    }
    async sendToolResult(p: { content: unknown }) {
      calls.push(`result ${JSON.stringify(p.content)}`);
    }
    async teardownResource() {
      calls.push('teardown');
      return {};
    }
    async close() {
      calls.push('close');
    }
  }
  class FakeTransport {}
  const module = { AppBridge: FakeBridge, PostMessageTransport: FakeTransport } as unknown as AppBridgeModule;
  return { calls, bridges, load: () => Promise.resolve(module) };
}

const view: McpAppResource = { uri: 'ui://clock/view.html', server: 'clock', html: '<!doctype html><p>clock</p>', csp: {}, permissions: [], problems: [] };

describe('<McpAppFrame>', () => {
  it('with a served frame document: loads it with the declared origins, connects once it listens, then posts the view to it only', async () => {
    const bridge = fakeBridge();
    const served: McpAppResource = { ...view, csp: { connectDomains: ['https://api.example.com'] }, frame: 'https://kit.example.com/v1/app-frame' };
    render(<McpAppFrame view={served} title="Clock app" loadBridge={bridge.load} />);
    const frame = screen.getByTitle('Clock app') as HTMLIFrameElement;
    await vi.waitFor(() => expect(frame.getAttribute('src')).toBe('https://kit.example.com/v1/app-frame?connect=https%3A%2F%2Fapi.example.com'));
    const posted = vi.spyOn(frame.contentWindow!, 'postMessage').mockImplementation(() => undefined);
    // Nothing connects before the document says it listens; a message from elsewhere does not count.
    window.dispatchEvent(new MessageEvent('message', { data: { type: 'chatsurface/app-frame-ready' }, source: window }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(bridge.calls).toEqual([]);
    window.dispatchEvent(new MessageEvent('message', { data: { type: 'chatsurface/app-frame-ready' }, source: frame.contentWindow }));
    await vi.waitFor(() => expect(posted).toHaveBeenCalledTimes(1));
    expect(bridge.calls).toEqual(['connect']);
    const [message, target] = posted.mock.calls[0]! as [{ type: string; html: string }, string];
    expect(message.type).toBe('chatsurface/app-frame-view');
    expect(message.html).toContain('connect-src https://api.example.com');
    expect(message.html).toContain('<p>clock</p>');
    expect(target).toBe('*');
    expect(frame.getAttribute('srcdoc')).toBeNull();
  });

  it('a sandboxed frame without same-origin; the policy and the view load only once the bridge listens', async () => {
    const bridge = fakeBridge();
    render(<McpAppFrame view={view} title="Clock app" loadBridge={bridge.load} />);
    const frame = screen.getByTitle('Clock app');
    expect(frame).toHaveAttribute('sandbox', 'allow-scripts');
    expect(frame.getAttribute('srcdoc')).toBeNull();
    await vi.waitFor(() => expect(frame.getAttribute('srcdoc')).toContain("connect-src 'none'"));
    expect(frame.getAttribute('srcdoc')).toContain('<p>clock</p>');
    expect(bridge.calls).toEqual(['connect']);
    expect(bridge.bridges[0]!.capabilities).toHaveProperty('serverTools');
    expect(screen.getByTitle('Clock app').closest('[data-part="mcp-app"]')).toHaveAttribute('data-state', 'connecting');
  });

  it('on ui/initialized: the tool input, then the result; then ready', async () => {
    const bridge = fakeBridge();
    const { container } = render(
      <McpAppFrame view={view} title="Clock app" loadBridge={bridge.load} toolInput={{ zone: 'UTC' }} toolResult={{ content: [{ type: 'text', text: '12:00' }] }} />,
    );
    await vi.waitFor(() => expect(bridge.bridges[0]?.oninitialized).toBeTypeOf('function'));
    await act(async () => bridge.bridges[0]!.oninitialized!());
    await vi.waitFor(() => expect(container.firstChild).toHaveAttribute('data-state', 'ready'));
    expect(bridge.calls).toEqual(['connect', 'input {"arguments":{"zone":"UTC"}}', 'result [{"type":"text","text":"12:00"}]']);
  });

  it('follows the view’s size within its bounds', async () => {
    const bridge = fakeBridge();
    render(<McpAppFrame view={view} title="Clock app" loadBridge={bridge.load} maxHeight={300} />);
    const frame = screen.getByTitle('Clock app');
    expect(frame.style.height).toBe('120px');
    await vi.waitFor(() => expect(bridge.bridges[0]?.onsizechange).toBeTypeOf('function'));
    act(() => bridge.bridges[0]!.onsizechange!({ height: 212.4 }));
    expect(frame.style.height).toBe('213px');
    act(() => bridge.bridges[0]!.onsizechange!({ height: 99_999 }));
    expect(frame.style.height).toBe('300px');
    act(() => bridge.bridges[0]!.onsizechange!({ height: 0 }));
    expect(frame.style.height).toBe('32px');
  });

  it('a tools/call from the view goes to onCallTool; without one it is refused', async () => {
    const bridge = fakeBridge();
    const onCallTool = vi.fn(async () => ({ content: [{ type: 'text' as const, text: 'now' }] }));
    const { rerender } = render(<McpAppFrame view={view} title="Clock app" loadBridge={bridge.load} onCallTool={onCallTool} />);
    await vi.waitFor(() => expect(bridge.bridges[0]?.oncalltool).toBeTypeOf('function'));
    await expect(bridge.bridges[0]!.oncalltool!({ name: 'get-time', arguments: { a: 1 } })).resolves.toEqual({ content: [{ type: 'text', text: 'now' }] });
    expect(onCallTool).toHaveBeenCalledWith('get-time', { a: 1 }, { session: expect.stringMatching(/^appsession_[a-z0-9]{10}$/) });
    rerender(<McpAppFrame view={view} title="Clock app" loadBridge={bridge.load} />);
    await expect(bridge.bridges[0]!.oncalltool!({ name: 'get-time' })).resolves.toMatchObject({ isError: true });
  });

  it('names one session per run of the view: the same for every call until it is closed, a new one once reopened', async () => {
    const bridge = fakeBridge();
    const sessions: string[] = [];
    const onCallTool = vi.fn(async (_name: string, _args: Record<string, unknown>, { session }: { session: string }) => (sessions.push(session), { content: [] }));
    render(<McpAppFrame view={view} title="Clock app" loadBridge={bridge.load} onCallTool={onCallTool} />);
    await vi.waitFor(() => expect(bridge.bridges[0]?.oncalltool).toBeTypeOf('function'));
    await bridge.bridges[0]!.oncalltool!({ name: 'poll' });
    await bridge.bridges[0]!.oncalltool!({ name: 'poll' });
    await userEvent.click(screen.getByRole('button', { name: 'Close Clock app' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Open Clock app again' }));
    await vi.waitFor(() => expect(bridge.bridges[1]?.oncalltool).toBeTypeOf('function'));
    await bridge.bridges[1]!.oncalltool!({ name: 'poll' });
    expect(sessions[0]).toBe(sessions[1]);
    expect(sessions[2]).not.toBe(sessions[0]);
  });

  it('Close tears the view down and removes the frame; unmounting tears down too', async () => {
    const bridge = fakeBridge();
    const { container, unmount } = render(<McpAppFrame view={view} title="Clock app" loadBridge={bridge.load} />);
    await vi.waitFor(() => expect(bridge.calls).toContain('connect'));
    await userEvent.click(screen.getByRole('button', { name: 'Close Clock app' }));
    await vi.waitFor(() => expect(container.firstChild).toHaveAttribute('data-state', 'closed'));
    expect(screen.queryByTitle('Clock app')).toBeNull();
    expect(bridge.calls).toEqual(['connect', 'teardown', 'close']);
    await userEvent.click(screen.getByRole('button', { name: 'Open Clock app again' }));
    await vi.waitFor(() => expect(bridge.calls.filter((c) => c === 'connect')).toHaveLength(2));
    unmount();
    await vi.waitFor(() => expect(bridge.calls.slice(-2)).toEqual(['teardown', 'close']));
  });

  it('a bridge that fails to load says so in words', async () => {
    render(<McpAppFrame view={view} title="Clock app" loadBridge={() => Promise.reject(new Error('network down'))} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('The app could not start: network down');
  });
});
