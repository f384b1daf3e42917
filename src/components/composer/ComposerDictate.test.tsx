// @vitest-environment jsdom
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createOfflineDriver } from '../../runtime/offlineDriver';
import { createLocalWorkspace } from '../../workspace/localWorkspace';
import { ChatSurface } from '../chat-surface/ChatSurface';
import { ChatSurfaceRoot } from '../chat-surface/ChatSurfaceRoot';
import { stubTranscriptLayout } from '../testing/layout';
import { Composer } from './Composer';
import type { RecognizerResultEvent } from './speech';

/** The dictation's live region (polite; not a role="status", which the surface's status line is). */
const dictateStatus = () => document.querySelector<HTMLElement>('[data-part="composer-dictate-status"]')!;

/** A scripted stand-in for the browser's SpeechRecognition. */
class FakeRecognition {
  static made: FakeRecognition[] = [];
  continuous = false;
  interimResults = false;
  lang = '';
  onresult: ((event: RecognizerResultEvent) => void) | null = null;
  onerror: ((event: { error: string }) => void) | null = null;
  onend: (() => void) | null = null;
  start = vi.fn();
  stop = vi.fn();
  constructor() {
    FakeRecognition.made.push(this);
  }
  /** The session's results so far, `[text, final]` each; from `resultIndex` on they changed. */
  hear(results: [string, boolean][], resultIndex = 0) {
    const list = results.map(([transcript, isFinal]) => Object.assign([{ transcript }], { isFinal }));
    act(() => this.onresult?.({ resultIndex, results: list }));
  }
}

const speechWindow = window as unknown as Record<string, unknown>;

// Dictation's code is a chunk the first press fetches: its module is made ready here, so the tests
// time the press, not the first transform of the module.
beforeAll(() => import('../chat-surface/usedParts'));
beforeEach(() => {
  FakeRecognition.made = [];
});
afterEach(() => {
  delete speechWindow.SpeechRecognition;
  delete speechWindow.webkitSpeechRecognition;
});

function setup({ locale }: { locale?: string } = {}) {
  const workspace = createLocalWorkspace({ capabilities: [], driver: createOfflineDriver({ delayMs: 0 }) });
  const send = vi.spyOn(workspace, 'send');
  const view = render(
    <ChatSurfaceRoot workspace={workspace} {...(locale ? { locale } : {})}>
      <Composer.Root>
        <Composer.Input />
        <Composer.Dictate />
        <Composer.Send />
      </Composer.Root>
    </ChatSurfaceRoot>,
  );
  const box = screen.getByRole('textbox', { name: 'Message' });
  return { send, box, view };
}

const dictate = () => screen.getByRole('button', { name: 'Dictate' });
const recognizer = () => FakeRecognition.made[0]!;

describe('<Composer.Dictate>', () => {
  it('is absent (not disabled) where the browser has no speech recognition', () => {
    setup();
    expect(screen.queryByRole('button', { name: 'Dictate' })).toBeNull();
    expect(document.querySelector('[data-part="composer-dictate"]')).toBeNull();
  });

  it('is there where it has one (either name), and makes no recognizer before the first press', () => {
    speechWindow.webkitSpeechRecognition = FakeRecognition;
    setup();
    expect(dictate()).toHaveAttribute('aria-pressed', 'false');
    expect(dictate()).toHaveAttribute('data-state', 'idle');
    expect(dictate()).toHaveAttribute('type', 'button');
    expect(FakeRecognition.made).toHaveLength(0);
  });

  it('fills the box after the typed text as the user speaks: interim words replaced as they are refined, final ones kept; never sends', async () => {
    speechWindow.SpeechRecognition = FakeRecognition;
    const { box, send } = setup({ locale: 'de' });
    await userEvent.type(box, 'Note:');
    await userEvent.click(dictate());
    // The first press fetches dictation's code (a chunk of its own) and starts once it is there.
    await waitFor(() => expect(FakeRecognition.made).toHaveLength(1));
    const made = recognizer();
    expect(made).toMatchObject({ continuous: true, interimResults: true, lang: 'de' });
    expect(made.start).toHaveBeenCalledTimes(1);
    expect(dictate()).toHaveAttribute('aria-pressed', 'true');
    expect(dictate()).toHaveAttribute('data-state', 'listening');
    expect(dictateStatus()).toHaveTextContent('Listening');

    made.hear([['call the', false]]);
    expect(box).toHaveValue('Note: call the');
    made.hear([['call the supplier', false]]);
    expect(box).toHaveValue('Note: call the supplier');
    made.hear([[' call the supplier', true], [' about', false]], 0);
    expect(box).toHaveValue('Note: call the supplier about');
    made.hear([[' call the supplier', true], [' about invoices', true]], 1);
    expect(box).toHaveValue('Note: call the supplier about invoices');
    expect(send).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
  });

  it('keeps what the user types while listening, and puts the words heard after it', async () => {
    speechWindow.SpeechRecognition = FakeRecognition;
    const { box } = setup();
    await userEvent.click(dictate());
    recognizer().hear([['hello', true], ['wor', false]]);
    expect(box).toHaveValue('hello wor');
    fireEvent.change(box, { target: { value: 'hello, wor' } });
    recognizer().hear([['hello', true], ['world', true]], 1);
    expect(box).toHaveValue('hello, world');
  });

  it('stops on a second press and keeps the text (later results change nothing)', async () => {
    speechWindow.SpeechRecognition = FakeRecognition;
    const { box, send } = setup();
    await userEvent.type(box, 'Dear team');
    await userEvent.click(dictate());
    recognizer().hear([['thanks', false]]);
    await userEvent.click(dictate());
    expect(recognizer().stop).toHaveBeenCalledTimes(1);
    expect(dictate()).toHaveAttribute('aria-pressed', 'false');
    expect(dictateStatus()).toHaveTextContent('Stopped listening');
    recognizer().hear([['thanks everyone', true]]);
    expect(box).toHaveValue('Dear team thanks');
    expect(send).not.toHaveBeenCalled();
    // A new press starts again with the same recognizer, after the text now in the box.
    await userEvent.click(dictate());
    expect(FakeRecognition.made).toHaveLength(1);
    recognizer().hear([['a lot', true]]);
    expect(box).toHaveValue('Dear team thanks a lot');
  });

  it('stops on Escape in the box, keeping the text', async () => {
    speechWindow.SpeechRecognition = FakeRecognition;
    const { box } = setup();
    await userEvent.click(dictate());
    recognizer().hear([['remind me', false]]);
    box.focus();
    await userEvent.keyboard('{Escape}');
    expect(recognizer().stop).toHaveBeenCalled();
    expect(dictate()).toHaveAttribute('data-state', 'idle');
    expect(box).toHaveValue('remind me');
  });

  it('stops when the recognizer ends by itself, keeping the text', async () => {
    speechWindow.SpeechRecognition = FakeRecognition;
    const { box } = setup();
    await userEvent.click(dictate());
    recognizer().hear([['ship it', true]]);
    act(() => recognizer().onend?.());
    expect(dictate()).toHaveAttribute('aria-pressed', 'false');
    expect(dictateStatus()).toHaveTextContent('Stopped listening');
    expect(box).toHaveValue('ship it');
  });

  it('stops when the user sends; words heard after that do not come back into the box', async () => {
    speechWindow.SpeechRecognition = FakeRecognition;
    const { box, send } = setup();
    await userEvent.click(dictate());
    recognizer().hear([['what is new', false]]);
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(send).toHaveBeenCalledTimes(1);
    expect(send.mock.calls[0]![0]).toMatchObject({ text: 'what is new' });
    expect(recognizer().stop).toHaveBeenCalled();
    recognizer().hear([['what is new today', true]]);
    expect(box).toHaveValue('');
  });

  it.each([
    ['not-allowed', 'The microphone is not allowed'],
    ['service-not-allowed', 'The microphone is not allowed'],
    ['no-speech', 'Nothing was heard'],
    ['audio-capture', 'No microphone was found'],
    ['network', 'The speech service could not be reached'],
    ['language-not-supported', 'Dictation stopped because of a problem'],
  ])('says "%s" in plain words as an alert, and keeps the text', async (code, words) => {
    speechWindow.SpeechRecognition = FakeRecognition;
    const { box } = setup();
    await userEvent.type(box, 'typed');
    await userEvent.click(dictate());
    recognizer().hear([['and said', false]]);
    act(() => recognizer().onerror?.({ error: code }));
    act(() => recognizer().onend?.());
    expect(screen.getByRole('alert')).toHaveTextContent(words);
    expect(dictate()).toHaveAttribute('aria-pressed', 'false');
    expect(dictate()).toHaveAccessibleDescription(expect.stringContaining(words));
    expect(box).toHaveValue('typed and said');
    // The next press clears it.
    await userEvent.click(dictate());
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('stops the recognizer and removes its handlers on unmount', async () => {
    speechWindow.SpeechRecognition = FakeRecognition;
    const { view } = setup();
    await userEvent.click(dictate());
    const made = recognizer();
    view.unmount();
    expect(made.stop).toHaveBeenCalled();
    expect(made.onresult).toBeNull();
    expect(made.onerror).toBeNull();
    expect(made.onend).toBeNull();
  });

  it('is in the default composer of <ChatSurface>, before Send', async () => {
    speechWindow.webkitSpeechRecognition = FakeRecognition;
    const layout = stubTranscriptLayout();
    try {
      const workspace = createLocalWorkspace({ capabilities: [], driver: createOfflineDriver({ delayMs: 0 }) });
      render(<ChatSurface workspace={workspace} theme="light" />);
      await waitFor(() => expect(dictate()).toBeInTheDocument());
      expect(dictate().nextElementSibling?.getAttribute('data-part')).toBe('composer-dictate-status');
      const parts = [...document.querySelectorAll('[data-part="composer"] > button')].map((b) => b.getAttribute('data-part'));
      expect(parts.indexOf('composer-dictate')).toBeLessThan(parts.indexOf('composer-send'));
    } finally {
      layout.restore();
    }
  });
});
