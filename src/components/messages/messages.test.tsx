import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ThreadEventInput } from '../../runtime/events';
import { ChatSurface } from '../chat-surface/ChatSurface';
import { ChatSurfaceRoot } from '../chat-surface/ChatSurfaceRoot';
import { stubTranscriptLayout, type LayoutStub } from '../testing/layout';
import { scriptedWorkspace } from '../testing/scriptedWorkspace';
import { ErrorRow } from '../transcript/ErrorRow';
import { InvocationCard } from '../invocation-card/InvocationCard';
import type { InvocationRow } from '../../runtime/fold';
import { MessagesProvider, useLocale } from './context';
import { plural } from './plural';
import { RemoteWorkspaceError } from '../../workspace/remoteErrors';

let layout: LayoutStub;
beforeEach(() => {
  layout = stubTranscriptLayout();
});
afterEach(() => {
  layout.restore();
  document.documentElement.removeAttribute('lang');
});

const workspace = (events: ThreadEventInput[] = []) => {
  const ws = scriptedWorkspace({ driver: { id: 'offline', label: 'Offline model' } });
  for (const event of events) ws.log.emit(event);
  return ws;
};

const failedTurn: ThreadEventInput[] = [
  { type: 'message.created', message_id: 'u1', role: 'user', text: 'Summarise this week' },
  { type: 'turn.error', code: 'model_error', message: 'The model is overloaded.', recoverable: true },
];

describe('messages on <ChatSurface>', () => {
  it('renders the English defaults when the host gives none', () => {
    render(<ChatSurface workspace={workspace(failedTurn)} threadStorageKey={false} />);
    expect(screen.getByRole('region', { name: 'Chat' })).toBeInTheDocument();
    expect(screen.getByRole('log', { name: 'Conversation' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveAttribute('placeholder', 'Ask anything…');
    expect(screen.getByRole('button', { name: 'Send' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('shows a message the host overrides and leaves every other one English', () => {
    render(<ChatSurface workspace={workspace(failedTurn)} threadStorageKey={false} messages={{ composer: { send: 'Senden' }, error: { retry: 'Erneut versuchen' } }} />);
    expect(screen.getByRole('button', { name: 'Senden' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Erneut versuchen' })).toBeInTheDocument();
    // Not overridden: still the defaults.
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveAttribute('placeholder', 'Ask anything…');
    expect(screen.getByRole('log', { name: 'Conversation' })).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Message composer' })).toBeInTheDocument();
    expect(screen.getByText('Problem')).toBeInTheDocument();
  });

  it("says a remote workspace's refusal in the surface's words: the status and the server's own message, translated around them", async () => {
    const ws = workspace();
    const refused = new RemoteWorkspaceError({ key: 'signedOut', args: ['https://chat.example', 'No session: sign in again.'] }, 401, 'unauthorized', 'No session: sign in again.');
    ws.send = async () => {
      throw refused;
    };
    const { unmount } = render(<ChatSurface workspace={ws} threadStorageKey={false} />);
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'hello{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Not sent: You are not signed in to the workspace server at https://chat.example (401): No session: sign in again. Your message is back in the box.');
    unmount();
    render(
      <ChatSurface
        workspace={ws}
        threadStorageKey={false}
        messages={{ composer: { notSent: (reason) => `Nicht gesendet: ${reason}.` }, remote: { signedOut: (where, said) => `Du bist bei ${where} nicht angemeldet (401): ${said}` } }}
      />,
    );
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'hallo{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Nicht gesendet: Du bist bei https://chat.example nicht angemeldet (401): No session: sign in again.');
    // The thrown error itself keeps the English sentence, for the host's logs.
    expect(refused.message).toBe('You are not signed in to the workspace server at https://chat.example (401): No session: sign in again.');
  });

  it('names the landmark from the messages, and a label prop still wins', () => {
    const { unmount } = render(<ChatSurface workspace={workspace()} threadStorageKey={false} messages={{ surface: { label: 'Unterhaltung' } }} />);
    expect(screen.getByRole('region', { name: 'Unterhaltung' })).toBeInTheDocument();
    // The surface's own name is the default one, so the composer's name does not repeat it.
    expect(screen.getByRole('form', { name: 'Message composer' })).toBeInTheDocument();
    unmount();
    render(<ChatSurface workspace={workspace()} threadStorageKey={false} label="Support" messages={{ surface: { label: 'Unterhaltung' } }} />);
    expect(screen.getByRole('region', { name: 'Support' })).toBeInTheDocument();
  });

  it('counts with the plural the host gives, in its language', () => {
    const done = (id: string, title: string, structuredContent: Record<string, unknown>, kind: 'table' | 'list'): InvocationRow => ({
      kind: 'invocation',
      id,
      capability: 'records.list',
      title,
      args: {},
      state: 'done',
      output: '',
      outputTruncated: false,
      startedAt: 0,
      endedAt: 1_000,
      result: { content: [{ type: 'text', text: title }], structuredContent, display_hint: { kind } },
    });
    render(
      <ChatSurfaceRoot
        workspace={workspace()}
        locale="de"
        messages={{ card: { moreRows: plural('de', { one: 'und # weitere Zeile', other: 'und # weitere Zeilen' }), moreItems: plural('de', { one: 'und # weiterer Eintrag', other: 'und # weitere Einträge' }) } }}
      >
        <InvocationCard row={done('inv1', 'Datensätze', { rows: Array.from({ length: 9 }, (_, i) => ({ n: i })) }, 'table')} />
        <InvocationCard row={done('inv2', 'Städte', { towns: Array.from({ length: 1_011 }, (_, i) => `T${i}`) }, 'list')} />
      </ChatSurfaceRoot>,
    );
    expect(screen.getByRole('article', { name: 'Datensätze' })).toHaveTextContent('und 1 weitere Zeile');
    expect(screen.getByRole('article', { name: 'Städte' })).toHaveTextContent('und 1.003 weitere Einträge');
  });

  it('sets lang and dir on the surface from locale and dir, and leaves them to the page when absent', () => {
    const { unmount } = render(<ChatSurface workspace={workspace()} threadStorageKey={false} locale="ar" dir="rtl" />);
    const section = screen.getByRole('region', { name: 'Chat' });
    expect(section).toHaveAttribute('lang', 'ar');
    expect(section).toHaveAttribute('dir', 'rtl');
    unmount();
    render(<ChatSurface workspace={workspace()} threadStorageKey={false} />);
    expect(screen.getByRole('region', { name: 'Chat' })).not.toHaveAttribute('lang');
    expect(screen.getByRole('region', { name: 'Chat' })).not.toHaveAttribute('dir');
  });
});

function Locale() {
  return <output>{useLocale()}</output>;
}

describe('useLocale', () => {
  it('is the locale prop, else the lang of the page around the surface, else en', () => {
    const ws = workspace();
    const { rerender } = render(
      <ChatSurfaceRoot workspace={ws} locale="de-AT">
        <Locale />
      </ChatSurfaceRoot>,
    );
    expect(screen.getByRole('status')).toHaveTextContent('de-AT');
    rerender(
      <div lang="fr">
        <ChatSurfaceRoot workspace={ws}>
          <Locale />
        </ChatSurfaceRoot>
      </div>,
    );
    expect(screen.getByRole('status')).toHaveTextContent('fr');
  });

  it('is en on a page without a lang, or with one Intl does not know', () => {
    document.documentElement.setAttribute('lang', 'not a language');
    render(
      <ChatSurfaceRoot workspace={workspace()}>
        <Locale />
      </ChatSurfaceRoot>,
    );
    expect(screen.getByRole('status')).toHaveTextContent(/^en$/);
  });
});

describe('a part rendered on its own', () => {
  const row = { kind: 'error' as const, id: 'e1', code: 'model_error', message: 'The model is unreachable.', recoverable: true };

  it('says the English defaults outside any provider', () => {
    render(<ErrorRow row={row} onRetry={() => {}} />);
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('takes its words from a MessagesProvider of the host, nested providers merging over the outer ones', () => {
    render(
      <MessagesProvider messages={{ error: { retry: 'Nochmal', problem: 'Fehler' } }}>
        <MessagesProvider messages={{ error: { retry: 'Erneut versuchen' } }}>
          <ErrorRow row={row} onRetry={() => {}} />
        </MessagesProvider>
      </MessagesProvider>,
    );
    expect(screen.getByRole('button', { name: 'Erneut versuchen' })).toBeInTheDocument();
    expect(screen.getByText('Fehler')).toBeInTheDocument();
  });
});
