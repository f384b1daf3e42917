import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MissingPeerError } from '../../runtime/peers';
import { diagramDocument, sizeOf } from './diagramDocument';
import { mermaidChunk, resetMermaid, type MermaidModule } from './loadMermaid';
import { Markdown, preloadMarkdown } from './Markdown';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 320 160" style="max-width: 320px;"><g><text>Import</text></g></svg>';
const fence = (source: string, close = true) => 'The flow:\n\n```mermaid\n' + source + (close ? '\n```' : '');

/** A stand-in for mermaid that records what it was asked and draws `svg` (or throws `error`). */
function fakeMermaid({ svg = SVG, error }: { svg?: string; error?: Error } = {}) {
  const calls = { initialize: [] as Record<string, unknown>[], render: [] as string[] };
  const module: MermaidModule = {
    initialize: (config) => void calls.initialize.push(config),
    render: async (_id, text) => {
      calls.render.push(text);
      if (error) throw error;
      return { svg };
    },
  };
  return { module, calls };
}

const diagram = (container: HTMLElement) => container.querySelector<HTMLElement>('[data-part="diagram"]')!;

beforeAll(async () => {
  await preloadMarkdown();
});
beforeEach(() => resetMermaid());
afterEach(() => vi.restoreAllMocks());

describe('```mermaid fences', () => {
  it('are drawn in a sandboxed frame named "Diagram", strict, sized to the diagram, with a "Show source" toggle', async () => {
    const { module, calls } = fakeMermaid();
    const load = vi.spyOn(mermaidChunk, 'load').mockResolvedValue(module);
    const { container } = render(<Markdown text={fence('flowchart LR\n  A[Import] --> B[Check]')} />);
    await waitFor(() => expect(diagram(container)).toHaveAttribute('data-state', 'drawn'));
    expect(load).toHaveBeenCalledTimes(1);
    expect(calls.render).toEqual(['flowchart LR\n  A[Import] --> B[Check]']);
    expect(calls.initialize[0]).toMatchObject({ securityLevel: 'strict', startOnLoad: false });

    const frame = screen.getByTitle('Diagram');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame).toHaveAttribute('sandbox', '');
    expect(frame.getAttribute('srcdoc')).toContain(SVG);
    expect(frame.getAttribute('srcdoc')).toContain("default-src 'none'");
    expect(frame.style.maxWidth).toBe('320px');
    expect(frame.style.aspectRatio).toBe('320 / 160');
    // The SVG is never in the page itself.
    expect(container.querySelector('svg')).toBeNull();

    const toggle = screen.getByRole('button', { name: 'Show source' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(container.querySelector('[data-part="code-block"]')).toBeNull();
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const code = container.querySelector<HTMLElement>('[data-part="code-block"]')!;
    expect(within(code).getByRole('group', { name: 'mermaid' })).toHaveTextContent('A[Import] --> B[Check]');
    await userEvent.click(toggle);
    expect(container.querySelector('[data-part="code-block"]')).toBeNull();
  });

  it('show their source while the fence is still being written, then are drawn once it closes', async () => {
    const { module, calls } = fakeMermaid();
    const load = vi.spyOn(mermaidChunk, 'load').mockResolvedValue(module);
    const head = fence('sequenceDiagram\n  User->>Kit: send', false);
    const { container, rerender } = render(<Markdown text={head} streaming />);
    expect(diagram(container)).toHaveAttribute('data-state', 'writing');
    expect(container.querySelector('pre code')).toHaveTextContent('User->>Kit: send');
    rerender(<Markdown text={head + '\n  Kit->>User: reply'} streaming />);
    await act(async () => {});
    expect(diagram(container)).toHaveAttribute('data-state', 'writing');
    expect(calls.render).toEqual([]); // nothing drawn from a half-written source
    expect(load).toHaveBeenCalledTimes(1); // fetched once, ahead of the close
    rerender(<Markdown text={head + '\n  Kit->>User: reply\n```'} streaming />);
    await waitFor(() => expect(diagram(container)).toHaveAttribute('data-state', 'drawn'));
    expect(calls.render).toEqual(['sequenceDiagram\n  User->>Kit: send\n  Kit->>User: reply']);
  });

  it('that mermaid cannot draw stay as code, with the reason in plain words', async () => {
    const { module } = fakeMermaid({ error: new Error('Parse error on line 2:\n...A -->\n-------^\nExpecting something') });
    vi.spyOn(mermaidChunk, 'load').mockResolvedValue(module);
    const { container } = render(<Markdown text={fence('flowchart LR\n  A -->')} />);
    await waitFor(() => expect(diagram(container)).toHaveAttribute('data-state', 'failed'));
    expect(container.querySelector('pre code')).toHaveTextContent('A -->');
    expect(diagram(container)).toHaveTextContent('This diagram could not be drawn (Parse error on line 2), so it is shown as its source.');
    expect(screen.queryByTitle('Diagram')).toBeNull();
  });

  it('stay as code with a note when the page has no mermaid (the optional peer is not installed)', async () => {
    vi.spyOn(mermaidChunk, 'load').mockRejectedValue(new MissingPeerError('mermaid', new Error('Could not resolve "mermaid"')));
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { container } = render(<Markdown text={fence('pie title Pets\n  "Dogs" : 3')} />);
    await waitFor(() => expect(diagram(container)).toHaveAttribute('data-state', 'failed'));
    expect(diagram(container)).toHaveTextContent('Diagrams cannot be drawn here, so this one is shown as its source.');
    expect(container.querySelector('pre code')).toHaveTextContent('"Dogs" : 3');
  });

  it('leave other fences alone: they never fetch mermaid', async () => {
    const load = vi.spyOn(mermaidChunk, 'load');
    const { container } = render(<Markdown text={'```text\nflowchart LR\n```'} />);
    await act(async () => {});
    expect(container.querySelector('[data-part="diagram"]')).toBeNull();
    expect(load).not.toHaveBeenCalled();
  });
});

describe('the diagram frame document', () => {
  it('is sized from the viewBox, and 640 by 360 without one', () => {
    expect(sizeOf('<svg viewBox="0 0 612.5 174">')).toEqual({ width: 612.5, height: 174 });
    expect(sizeOf('<svg width="10">')).toEqual({ width: 640, height: 360 });
  });

  it('loads nothing: a policy of no script and no network, the SVG as the only content', () => {
    const doc = diagramDocument('<svg><image href="https://evil.example/x.png"/></svg>', true);
    expect(doc).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:"`);
    expect(doc).toContain('<meta name="color-scheme" content="dark">');
    expect(doc).not.toContain('<script');
  });
});
