import type { Meta, StoryObj } from '@storybook/react-vite';
import { useLayoutEffect, useState, type ReactNode } from 'react';
import { ChatSurface, type MessagesOverride, type WorkspaceAdapter } from '../src';
import type { RecognizerResultEvent } from '../src/components/composer/speech';
import { storyWorkspace } from './fixtures';
import { de } from './locales/de';

/**
 * Voice input (docs/surface.md#dictation-voice-input): `Composer.Dictate` beside Send where the
 * browser has speech recognition. Each story puts a scripted recognizer on the page in place of
 * the browser's (so no microphone is asked for), or takes it away.
 */

/** One step of the script: the session's results so far (`[words, final]`), or an error code. */
type Step = { at: number; results?: [string, boolean][]; error?: string };

function scriptedRecognition(script: readonly Step[]) {
  return class ScriptedRecognition {
    continuous = false;
    interimResults = false;
    lang = '';
    onresult: ((event: RecognizerResultEvent) => void) | null = null;
    onerror: ((event: { error: string }) => void) | null = null;
    onend: (() => void) | null = null;
    private timers: ReturnType<typeof setTimeout>[] = [];
    start() {
      for (const step of script) {
        this.timers.push(
          setTimeout(() => {
            if (step.error) {
              this.onerror?.({ error: step.error });
              this.onend?.();
              return;
            }
            const results = (step.results ?? []).map(([transcript, isFinal]) => Object.assign([{ transcript }], { isFinal }));
            const resultIndex = Math.max(0, results.findIndex((r) => !r.isFinal));
            this.onresult?.({ resultIndex, results });
          }, step.at),
        );
      }
    }
    stop() {
      this.timers.forEach(clearTimeout);
      this.timers = [];
    }
  };
}

const speech = window as unknown as Record<'SpeechRecognition' | 'webkitSpeechRecognition', unknown>;

/** Puts `recognition` on the page (or none) while the story is shown, then puts the browser's back. */
function WithSpeech({ recognition, children }: { recognition: unknown; children: ReactNode }) {
  const [ready, setReady] = useState(false);
  useLayoutEffect(() => {
    const saved = { SpeechRecognition: speech.SpeechRecognition, webkitSpeechRecognition: speech.webkitSpeechRecognition };
    speech.SpeechRecognition = recognition;
    speech.webkitSpeechRecognition = recognition;
    setReady(true);
    return () => {
      speech.SpeechRecognition = saved.SpeechRecognition;
      speech.webkitSpeechRecognition = saved.webkitSpeechRecognition;
    };
  }, [recognition]);
  return ready ? children : null;
}

const speaking = scriptedRecognition([
  { at: 300, results: [['find the', false]] },
  { at: 700, results: [['find the open invoices', false]] },
  { at: 1100, results: [['find the open invoices', true], ['from', false]] },
  { at: 1500, results: [['find the open invoices', true], ['from March', false]] },
]);

type Args = { workspace: WorkspaceAdapter; recognition: unknown; locale?: string; messages?: MessagesOverride };

const meta = {
  title: 'Composer/Dictate',
  render: ({ recognition, workspace, ...surface }) => (
    <WithSpeech recognition={recognition}>
      <div style={{ height: 360 }}>
        <ChatSurface workspace={workspace} theme="light" threadStorageKey={false} {...surface} />
      </div>
    </WithSpeech>
  ),
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

/** Waits for the part `selector` names (Dictate shows after mount). */
async function find<T extends HTMLElement>(root: HTMLElement, selector: string): Promise<T | null> {
  for (let i = 0; i < 100; i++) {
    const found = root.querySelector<T>(selector);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return null;
}

/** Types `draft` into the message box (as the user would have before dictating), then presses Dictate. */
const dictate =
  (draft = '') =>
  async ({ canvasElement }: { canvasElement: HTMLElement }) => {
    const box = await find<HTMLTextAreaElement>(canvasElement, '[data-part="composer-input"]');
    if (box && draft) {
      Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(box, draft);
      box.dispatchEvent(new Event('input', { bubbles: true }));
    }
    (await find<HTMLButtonElement>(canvasElement, '[data-part="composer-dictate"]'))?.click();
  };

/**
 * Listening (`aria-pressed="true"`, `data-state="listening"`): the words heard follow what was
 * typed ("Please"), the interim ones replaced as the recognizer refines them. Nothing is sent.
 */
export const Listening: Story = { args: { workspace: storyWorkspace(), recognition: speaking }, play: dictate('Please') };

/** Before the first press: Dictate beside Send; no recognizer yet, so no microphone prompt. */
export const Ready: Story = { args: { workspace: storyWorkspace(), recognition: speaking } };

/** The microphone refused: the reason as an alert beside the button; the typed text stays. */
export const MicrophoneNotAllowed: Story = {
  args: { workspace: storyWorkspace(), recognition: scriptedRecognition([{ at: 100, error: 'not-allowed' }]) },
  play: dictate('Summarise this week'),
};

/** Where the browser has no speech recognition: no Dictate button at all (not a disabled one). */
export const WithoutSpeechRecognition: Story = { args: { workspace: storyWorkspace(), recognition: undefined } };

/** In German: „Diktieren“, listening in `de`. */
export const German: Story = { args: { workspace: storyWorkspace(), recognition: speaking, locale: 'de', messages: de }, play: dictate() };
