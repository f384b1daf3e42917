import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ReplySource } from '../../runtime/fold';
import type { ModelDriver } from '../../runtime/model';
import { createLocalWorkspace } from '../../workspace/localWorkspace';
import { ChatSurface } from '../chat-surface/ChatSurface';
import { preloadMarkdown } from '../markdown/Markdown';
import { MessagesProvider } from '../messages/context';
import { stubTranscriptLayout, type LayoutStub } from '../testing/layout';
import { CitedReply } from './CitedReply';
import { MessageSources } from './Sources';

let layout: LayoutStub;
beforeAll(async () => {
  await preloadMarkdown();
});
beforeEach(() => {
  layout = stubTranscriptLayout();
});
afterEach(() => layout.restore());

const TEXT = 'The grass is green and the sky is blue. More at the site.';
const at = (part: string) => ({ start: TEXT.indexOf(part), end: TEXT.indexOf(part) + part.length });
const SOURCES: ReplySource[] = [
  { n: 1, source: { kind: 'document', title: 'Nature guide', index: 0 }, cited_text: 'The grass is green.', location: { unit: 'char', start: 0, end: 19 }, ranges: [at('The grass is green')], seq: 1 },
  { n: 2, source: { kind: 'document', title: 'Sky report', index: 1 }, cited_text: 'Blue, mostly.', location: { unit: 'page', start: 3, end: 4 }, ranges: [at('the sky is blue')], seq: 2 },
  { n: 3, source: { kind: 'search_result', title: 'Weather <b>now</b>', url: 'https://example.com/weather', index: 0 }, cited_text: '<img src=x onerror=alert(1)>', location: { unit: 'block', start: 0, end: 2 }, ranges: [at('More at the site')], seq: 3 },
  { n: 4, source: { kind: 'resource', title: 'Local notes', url: 'javascript:alert(1)' }, cited_text: '', ranges: [], seq: 4 },
];
const row = { kind: 'assistant' as const, id: 'm1', text: TEXT, status: 'done' as const, citations: SOURCES };

describe('<CitedReply>', () => {
  it('puts a numbered marker after each cited span, named for its source, and the Sources list under the reply', () => {
    const { container } = render(<CitedReply row={row} streaming={false} />);
    const markers = [...container.querySelectorAll('[data-part="citation-marker"] a')];
    expect(markers.map((a) => a.textContent)).toEqual(['[1]', '[2]', '[3]']);
    expect(markers.map((a) => a.getAttribute('aria-label'))).toEqual(['Source 1: Nature guide', 'Source 2: Sky report', 'Source 3: Weather <b>now</b>']);
    expect(container.querySelector('[data-part="markdown"]')!.textContent).toBe('The grass is green[1] and the sky is blue[2]. More at the site[3].');
    const list = screen.getByRole('list', { name: 'Sources' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((li) => li.getAttribute('value'))).toEqual(['1', '2', '3', '4']);
    expect(items[0]!.textContent).toBe('Nature guidecharacters 1–19The grass is green.');
    expect(items[1]!.textContent).toBe('Sky reportpage 3Blue, mostly.');
    expect(items[2]!.textContent).toBe('Weather <b>now</b>passages 1–2<img src=x onerror=alert(1)>');
    expect(items[3]!.textContent).toBe('Local noteslinked by a tool');
  });

  it('activating a marker moves focus to its source', async () => {
    render(<CitedReply row={row} streaming={false} />);
    await userEvent.click(screen.getByRole('link', { name: 'Source 2: Sky report' }));
    const source = within(screen.getByRole('list', { name: 'Sources' })).getAllByRole('listitem')[1]!;
    expect(document.activeElement).toBe(source);
    screen.getByRole('link', { name: 'Source 1: Nature guide' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(document.activeElement).toBe(within(screen.getByRole('list', { name: 'Sources' })).getAllByRole('listitem')[0]);
  });

  it('makes a link only of an http(s) address, in a new tab; never reads a source as HTML', () => {
    const { container } = render(<MessageSources sources={SOURCES} idPrefix="r-" />);
    const links = within(container).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('target'), a.getAttribute('rel')])).toEqual([
      ['Weather <b>now</b>', 'https://example.com/weather', '_blank', 'noopener noreferrer'],
    ]);
    expect(container.querySelector('img, b')).toBeNull();
    expect(container.querySelector('#r-source-4')!.textContent).toBe('Local noteslinked by a tool');
  });

  it('a marker a model wrote itself, with no such source, is only its text', () => {
    const { container } = render(<CitedReply row={{ ...row, text: 'Fake[9](#chatsurface-source-9).' }} streaming={false} />);
    expect(container.querySelector('[data-part="markdown"]')!.textContent).toBe('Fake9.');
    expect(container.querySelector('[data-part="citation-marker"] a')).toBeNull();
  });

  it("takes the host's words", () => {
    render(
      <MessagesProvider messages={{ citations: { heading: 'Quellen', marker: (n, title) => `Quelle ${n}: ${title}` } }}>
        <CitedReply row={row} streaming={false} />
      </MessagesProvider>,
    );
    expect(screen.getByRole('list', { name: 'Quellen' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Quelle 1: Nature guide' })).toBeTruthy();
  });
});

describe('the assistant row with citations', () => {
  it('shows the markers and the Sources list of a reply that cites, loaded on use', async () => {
    const driver: ModelDriver = {
      info: { id: 'probe', label: 'Probe' },
      async *respond() {
        yield { type: 'text', text: 'There are 6 records.' };
        yield { type: 'citation', citation: { source: { kind: 'search_result', title: 'List records', url: 'records.list', index: 0 }, cited_text: 'You have 6 records.', range: { start: 0, end: 19 } } };
      },
    };
    render(<ChatSurface workspace={createLocalWorkspace({ capabilities: [], driver })} theme="light" />);
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'how many records?{Enter}');
    const marker = await screen.findByRole('link', { name: 'Source 1: List records' });
    const reply = marker.closest('[data-part="message"]') as HTMLElement;
    expect(reply.getAttribute('data-role')).toBe('assistant');
    expect(within(reply).getByRole('list', { name: 'Sources' }).textContent).toBe('List recordsYou have 6 records.');
  });
});
