import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../../runtime/capability';
import { textResult } from '../../runtime/results';
import type { ModelDriver } from '../../runtime/model';
import { createOfflineDriver } from '../../runtime/offlineDriver';
import { catalogNode } from '../../runtime/catalogNodes';
import { createLocalWorkspace } from '../../workspace/localWorkspace';
import type { WorkspaceAdapter } from '../../workspace/types';
import { ChatSurface } from '../chat-surface/ChatSurface';
import { stubTranscriptLayout, type LayoutStub } from '../testing/layout';

let layout: LayoutStub;
beforeEach(() => {
  layout = stubTranscriptLayout();
});
afterEach(() => layout.restore());

function setup(options: { workspace?: WorkspaceAdapter; onNavigate?: (target: string) => void; onThreadChange?: (id: string) => void } = {}) {
  const workspace = options.workspace ?? createLocalWorkspace({ capabilities: [], driver: createOfflineDriver({ delayMs: 0 }) });
  render(<ChatSurface workspace={workspace} theme="light" {...(options.onNavigate ? { onNavigate: options.onNavigate } : {})} {...(options.onThreadChange ? { onThreadChange: options.onThreadChange } : {})} />);
  const input = screen.getByRole('textbox', { name: 'Message' });
  input.focus();
  return { workspace, input, user: userEvent.setup() };
}

const options = () => within(screen.getByRole('listbox', { name: 'Slash skills' })).getAllByRole('option');
const activeOption = (input: HTMLElement) => document.getElementById(input.getAttribute('aria-activedescendant') ?? '');

describe('the slash combobox', () => {
  it('opens on / at the start of the box, lists the discovered skills and keeps the focus in the box', async () => {
    const { input, user } = setup();
    const combobox = screen.getByRole('combobox', { name: 'Slash skills' });
    expect(combobox).toHaveAttribute('aria-expanded', 'false');
    await user.keyboard('/');
    await waitFor(() => expect(combobox).toHaveAttribute('aria-expanded', 'true'));
    expect(options().map((o) => o.querySelector('[data-part="slash-option-name"]')?.textContent)).toEqual(['/agent', '/model', '/harness', '/clear', '/help', '/summarize']);
    expect(input).toHaveFocus();
    expect(input).toHaveAttribute('aria-controls', screen.getByRole('listbox').id);
    expect(activeOption(input)).toHaveTextContent('/agent');
    expect(options()[0]).toHaveAttribute('aria-selected', 'true');
  });

  it('looks the skills up once the user is in the message box and the page is idle with no turn in progress, or at once when / comes first', async () => {
    // The browser's idle moments, run by hand.
    const idle: Array<() => void> = [];
    // (Awaited: an idle moment may mount a part whose code is still on its way.)
    const idleNow = () => act(async () => idle.splice(0).forEach((callback) => callback()));
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => idle.push(callback));
    vi.stubGlobal('cancelIdleCallback', () => {});
    try {
      // A reply that goes on until the test lets it end.
      let finish!: () => void;
      const finished = new Promise<void>((resolve) => (finish = resolve));
      const slow: ModelDriver = {
        info: { id: 'slow', label: 'Slow' },
        async *respond() {
          yield { type: 'text', text: 'Working on it' };
          await finished;
          yield { type: 'text', text: ', done.' };
        },
      };
      const workspace = createLocalWorkspace({ capabilities: [], driver: slow });
      const query = vi.spyOn(workspace, 'query');
      render(<ChatSurface workspace={workspace} theme="light" />);
      await idleNow();
      expect(query).not.toHaveBeenCalled(); // nobody has stepped into the box: nothing to look up yet

      // A turn is in progress (a host's own send) when the user steps in: idle moments between the
      // reply's frames look nothing up; the first one after the turn ends does.
      act(() => void workspace.send({ threadId: 'main', text: 'hello' }));
      await waitFor(() => expect(screen.getByRole('button', { name: 'Stop the reply' })).toBeInTheDocument());
      act(() => screen.getByRole('textbox', { name: 'Message' }).focus());
      await idleNow();
      await idleNow();
      expect(query).not.toHaveBeenCalled();
      act(() => finish());
      await waitFor(() => expect(screen.queryByRole('button', { name: 'Stop the reply' })).toBeNull());
      expect(query).not.toHaveBeenCalled();
      await idleNow();
      await waitFor(() => expect(query).toHaveBeenCalledTimes(1));
    } finally {
      cleanup();
      vi.unstubAllGlobals();
    }

    // A page that is never idle: nothing is looked up until the list opens.
    vi.stubGlobal('requestIdleCallback', vi.fn());
    vi.stubGlobal('cancelIdleCallback', () => {});
    try {
      const workspace = createLocalWorkspace({ capabilities: [], driver: createOfflineDriver({ delayMs: 0 }) });
      const query = vi.spyOn(workspace, 'query');
      const { user } = setup({ workspace });
      expect(query).not.toHaveBeenCalled();
      await user.keyboard('/');
      await waitFor(() => expect(options().length).toBeGreaterThan(0));
      expect(query).toHaveBeenCalledTimes(1);
    } finally {
      cleanup();
      vi.unstubAllGlobals();
    }
  });

  it('with 5,000 skills keeps only the options near the viewport in the page, each saying its place in the list', async () => {
    const many = Array.from({ length: 5_000 }, (_, i) =>
      catalogNode(`acme/Skill/gen-${i}`, { nodeType: 'Skill', name: `/gen-${i}`, description: `Generated skill ${i}`, order: 50, skill: { instructions: 'Do it.', autoMount: false, launchesSubThread: false } }),
    );
    const workspace = createLocalWorkspace({ capabilities: [], space: 'acme', skills: many, driver: createOfflineDriver({ delayMs: 0 }) });
    // jsdom lays nothing out: give the list a 288 px viewport, as the stylesheet does.
    const stubbed = Object.getOwnPropertyDescriptor(Element.prototype, 'clientHeight')!;
    Object.defineProperty(Element.prototype, 'clientHeight', {
      configurable: true,
      get(this: Element) {
        return this.getAttribute('data-part') === 'slash-list' ? 288 : (stubbed.get!.call(this) as number);
      },
    });
    const rect = { mockRestore: () => Object.defineProperty(Element.prototype, 'clientHeight', stubbed) };
    const { input, user } = setup({ workspace });
    await user.keyboard('/');
    await waitFor(() => expect(screen.getByRole('listbox')).toHaveAttribute('data-virtual', 'true'));
    rect.mockRestore();
    const shown = options();
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(60);
    expect(shown[0]).toHaveAttribute('aria-setsize', '5006');
    await user.keyboard('gen-4999');
    await waitFor(() => expect(options().map((o) => o.querySelector('[data-part="slash-option-name"]')?.textContent)).toEqual(['/gen-4999']));
    expect(activeOption(input)).toHaveTextContent('/gen-4999');
  });

  it('Page Down, End, Home and ↑ move the highlight through 5,000 skills, the highlighted option always in the page; the count is said once typing pauses', async () => {
    const many = Array.from({ length: 5_000 }, (_, i) =>
      catalogNode(`acme/Skill/gen-${i}`, { nodeType: 'Skill', name: `/gen-${i}`, description: `Generated skill ${i}`, order: 50, skill: { instructions: 'Do it.', autoMount: false, launchesSubThread: false } }),
    );
    const workspace = createLocalWorkspace({ capabilities: [], space: 'acme', skills: many, driver: createOfflineDriver({ delayMs: 0 }) });
    const { input, user } = setup({ workspace });
    await user.keyboard('/');
    await waitFor(() => expect(screen.getByRole('listbox')).toHaveAttribute('data-virtual', 'true'), { timeout: 5_000 });
    await user.keyboard('gen-');
    await waitFor(() => expect(activeOption(input)).toHaveAttribute('aria-posinset', '1'));
    const size = activeOption(input)!.getAttribute('aria-setsize')!;
    expect(Number(size)).toBe(5_000);
    const highlighted = () => {
      const active = activeOption(input);
      expect(active).toHaveAttribute('aria-selected', 'true');
      expect(active).toHaveAttribute('data-state', 'active');
      expect(options().filter((o) => o.getAttribute('aria-selected') === 'true')).toEqual([active]);
      // The band drawn under the highlighted option (hidden from assistive technology) sits at its row.
      const band = document.querySelector<HTMLElement>('[data-part="slash-highlight"]')!;
      expect(band).toHaveAttribute('aria-hidden', 'true');
      expect(band.style.transform).toBe(`translateY(${(Number(active!.getAttribute('aria-posinset')) - 1) * 48}px)`);
      return active!.getAttribute('aria-posinset');
    };
    await user.keyboard('{PageDown}');
    expect(highlighted()).toBe('7');
    await user.keyboard('{PageDown}{PageDown}{ArrowDown}');
    expect(highlighted()).toBe('20');
    await user.keyboard('{End}');
    expect(highlighted()).toBe(size);
    await user.keyboard('{PageUp}');
    expect(highlighted()).toBe(String(5_000 - 6));
    await user.keyboard('{Home}');
    expect(highlighted()).toBe('1');
    await user.keyboard('{ArrowUp}');
    expect(highlighted()).toBe(size);
    expect(options().length).toBeLessThan(30);
    // Said by screen readers (a polite status), once the typing pauses.
    await waitFor(() => expect(document.querySelector('[data-part="slash-count"]')).toHaveTextContent('5,000 skills match'));
    await user.keyboard('4999');
    await waitFor(() => expect(document.querySelector('[data-part="slash-count"]')).toHaveTextContent('1 skill matches'));
    expect(document.querySelector('[data-part="slash-count"]')).toHaveAttribute('role', 'status');
  }, 15_000);

  it('does not open for a slash in the middle of a message', async () => {
    const { user } = setup();
    await user.keyboard('a/b');
    expect(screen.getByRole('combobox', { name: 'Slash skills' })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('filters by name, description and keywords; arrows move the highlight and wrap', async () => {
    const { input, user } = setup();
    await user.keyboard('/tldr');
    await waitFor(() => expect(options()).toHaveLength(1));
    expect(options()[0]).toHaveTextContent('/summarize');
    await user.clear(input);
    await user.keyboard('/switch');
    await waitFor(() => expect(options().map((o) => o.querySelector('[data-part="slash-option-name"]')?.textContent)).toEqual(['/agent', '/model']));
    await user.keyboard('{ArrowDown}');
    expect(activeOption(input)).toHaveTextContent('/model');
    await user.keyboard('{ArrowDown}');
    expect(activeOption(input)).toHaveTextContent('/agent');
    await user.keyboard('{ArrowUp}');
    expect(activeOption(input)).toHaveTextContent('/model');
  });

  it('a press outside the list and the message box closes it and keeps the text; a press in the box does not; focus leaving closes it', async () => {
    const { input, user } = setup();
    await user.keyboard('/mo');
    await waitFor(() => expect(screen.getByRole('listbox')).toBeInTheDocument());
    const popup = screen.getByRole('group', { name: 'Slash skills' });
    expect(popup).toHaveAttribute('data-side');
    await user.pointer({ keys: '[MouseLeft]', target: input });
    expect(screen.getByRole('listbox')).toBeInTheDocument();
    await user.pointer({ keys: '[MouseLeft]', target: popup });
    expect(screen.getByRole('listbox')).toBeInTheDocument();
    await user.pointer({ keys: '[MouseLeft]', target: screen.getByRole('log') });
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(input).toHaveValue('/mo');

    await user.clear(input);
    await user.keyboard('/he');
    await waitFor(() => expect(screen.getByRole('listbox')).toBeInTheDocument());
    await user.tab({ shift: true });
    expect(input).not.toHaveFocus();
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('Tab completes the highlighted word and closes the list; Escape closes it and keeps the text', async () => {
    const { input, user } = setup();
    await user.keyboard('/sum');
    await waitFor(() => expect(options()[0]).toHaveTextContent('/summarize'));
    await user.keyboard('{Tab}');
    expect(input).toHaveValue('/summarize ');
    expect(input).toHaveFocus();
    expect(screen.queryByRole('listbox')).toBeNull();

    await user.clear(input);
    await user.keyboard('/mo');
    await waitFor(() => expect(screen.getByRole('listbox')).toBeInTheDocument());
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(input).toHaveValue('/mo');
    await user.keyboard('d');
    expect(screen.queryByRole('listbox')).toBeNull();
    await user.keyboard('{Backspace}{Backspace}');
    expect(input).toHaveValue('/m');
    await waitFor(() => expect(screen.getByRole('listbox')).toBeInTheDocument());
  });

  it('never selects or sends on Enter while an input method is composing', async () => {
    const { workspace, input, user } = setup();
    const send = vi.spyOn(workspace, 'send');
    await user.keyboard('/ag');
    await waitFor(() => expect(options()[0]).toHaveTextContent('/agent'));
    fireEvent.keyDown(input, { key: 'Enter', isComposing: true, keyCode: 229 });
    expect(send).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(input).toHaveValue('/ag');
    expect(screen.getByRole('listbox')).toBeInTheDocument();
  });

  it('says so in the list when discovery fails, and the message box keeps working', async () => {
    const base = createLocalWorkspace({ capabilities: [], driver: createOfflineDriver({ delayMs: 0 }) });
    const workspace: WorkspaceAdapter = Object.assign(Object.create(base) as WorkspaceAdapter, {
      query: () => Promise.reject(new Error('the catalog is offline')),
    });
    const { input, user } = setup({ workspace });
    await user.keyboard('/');
    expect(await screen.findByRole('alert')).toHaveTextContent('The slash skills could not be loaded: the catalog is offline');
    await user.keyboard('agent{Enter}');
    expect(await screen.findByText(/Not sent: the slash skills could not be loaded \(the catalog is offline\)/)).toBeInTheDocument();
    expect(input).toHaveValue('/agent');
  });

  it('shows no slash UI on a workspace without a node query', async () => {
    const base = createLocalWorkspace({ capabilities: [], driver: createOfflineDriver({ delayMs: 0 }) });
    const workspace = { ...base, manifest: base.manifest, query: undefined } as unknown as WorkspaceAdapter;
    const send = vi.spyOn(workspace, 'send');
    const { user } = setup({ workspace });
    expect(screen.queryByRole('combobox')).toBeNull();
    expect(screen.queryByRole('group', { name: 'Next message uses' })).toBeNull();
    await user.keyboard('/agent{Enter}');
    expect(send).toHaveBeenCalledWith({ threadId: 'main', text: '/agent' });
  });
});

describe('running slash skills', () => {
  it('/agent by keyboard: Enter opens the picker with the first agent highlighted; Enter picks; the status row shows it', async () => {
    const { workspace, input, user } = setup();
    const setComposer = vi.spyOn(workspace, 'setComposer');
    // Nothing picked yet: the defaults need no row.
    expect(screen.queryByRole('group', { name: 'Next message uses' })).toBeNull();
    await user.keyboard('/age');
    await waitFor(() => expect(options()[0]).toHaveTextContent('/agent'));
    await user.keyboard('{Enter}');
    const picker = await screen.findByRole('dialog', { name: 'Choose an agent' });
    const filter = within(picker).getByRole('combobox', { name: 'Choose an agent' });
    expect(filter).toHaveFocus();
    const first = await within(picker).findByRole('option', { name: /Assistant/ });
    expect(first).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowDown}');
    expect(within(picker).getByRole('option', { name: /Researcher/ })).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Enter}');
    expect(setComposer).toHaveBeenCalledWith({ threadId: 'main', composer: { agentName: 'Agent/researcher' } });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const status = await screen.findByRole('group', { name: 'Next message uses' });
    await waitFor(() => expect(status).toHaveTextContent('Agent: Researcher'));
    expect(status).toHaveTextContent('Model: default');
    expect(input).toHaveFocus();
    expect(input).toHaveValue('');
  });

  it('/model on a workspace that answers offline: the offline model first, Claude models shown unavailable with the reason, and choosing one is refused', async () => {
    const { workspace, user } = setup();
    const setComposer = vi.spyOn(workspace, 'setComposer');
    await user.keyboard('/model');
    await waitFor(() => expect(options()[0]).toHaveTextContent('/model'));
    await user.keyboard('{Enter}');
    const picker = await screen.findByRole('dialog', { name: 'Choose a model' });
    const all = await within(picker).findAllByRole('option');
    expect(all[0]).toHaveTextContent('Offline model');
    expect(all[0]).toHaveAttribute('data-state', 'available');
    expect(all[0]).toHaveAttribute('aria-selected', 'true');
    expect(all.length).toBeGreaterThan(2);
    for (const option of all.slice(1)) {
      expect(option).toHaveAttribute('data-state', 'unavailable');
      expect(option).toHaveTextContent('needs a server with an Anthropic API key');
    }
    await user.keyboard('{ArrowDown}{Enter}');
    expect(await within(picker).findByRole('alert')).toHaveTextContent(/^Not changed: Claude .+ cannot run here\. It needs a server with an Anthropic API key/);
    expect(setComposer).not.toHaveBeenCalled();
    // The close button closes the picker.
    await user.click(within(picker).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('a Pick pre-fills the picker filter with the rest of the command; Escape closes it and focus returns', async () => {
    const { input, user } = setup();
    await user.keyboard('/harness cop');
    await user.keyboard('{Enter}');
    const picker = await screen.findByRole('dialog', { name: 'Choose a harness' });
    expect(within(picker).getByRole('combobox')).toHaveValue('cop');
    await waitFor(() => expect(within(picker).getAllByRole('option').map((o) => o.querySelector('[data-part="node-picker-name"]')?.textContent)).toEqual(['Copilot']));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(input).toHaveFocus();
  });

  it('/clear starts a fresh thread; the old one stays retrievable in the thread switcher', async () => {
    const onThreadChange = vi.fn();
    const { input, user } = setup({ onThreadChange });
    await user.keyboard('hello there{Enter}');
    const log = screen.getByRole('log', { name: 'Conversation' });
    await waitFor(() => expect(log.querySelector('[data-role="assistant"]')?.getAttribute('data-state')).toBe('done'));
    await user.keyboard('/clear{Enter}');
    await waitFor(() => expect(onThreadChange).toHaveBeenCalledTimes(1));
    const fresh = onThreadChange.mock.calls[0]![0] as string;
    expect(fresh).not.toBe('main');
    await waitFor(() => expect(screen.getByRole('log', { name: 'Conversation' }).querySelector('[data-role="user"]')).toBeNull());
    const switcher = screen.getByRole('combobox', { name: 'Thread' });
    expect(switcher).toHaveValue(fresh);
    // Threads are named after their first message; the fresh one is "New thread".
    expect(within(switcher).getAllByRole('option').map((o) => o.textContent)).toEqual(['hello there', 'New thread']);
    await user.selectOptions(switcher, 'main');
    expect(onThreadChange).toHaveBeenLastCalledWith('main');
    await waitFor(() => expect(screen.getByRole('log', { name: 'Conversation' }).querySelector('[data-role="user"]')).toHaveTextContent('hello there'));
    expect(input).toBeInTheDocument();
  });

  it('after /clear a reload returns to the new thread, and the switcher still lists the earlier one', async () => {
    const workspace = createLocalWorkspace({ capabilities: [], driver: createOfflineDriver({ delayMs: 0 }) });
    const first = render(<ChatSurface workspace={workspace} theme="light" />);
    const user = userEvent.setup();
    screen.getByRole('textbox', { name: 'Message' }).focus();
    await user.keyboard('import the customers{Enter}');
    await waitFor(() => expect(screen.getByRole('log').querySelector('[data-role="assistant"]')?.getAttribute('data-state')).toBe('done'));
    await user.keyboard('/clear{Enter}');
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Thread' })).toHaveDisplayValue('New thread'));
    const fresh = (screen.getByRole('combobox', { name: 'Thread' }) as HTMLSelectElement).value;
    first.unmount();

    // The page loads again (same workspace: the threads' events are still there).
    render(<ChatSurface workspace={workspace} theme="light" />);
    const switcher = await screen.findByRole('combobox', { name: 'Thread' });
    expect(switcher).toHaveValue(fresh);
    expect(within(switcher).getAllByRole('option').map((o) => o.textContent)).toEqual(['import the customers', 'New thread']);
    expect(screen.getByRole('log').querySelector('[data-role="user"]')).toBeNull();
  });

  it('an instruction skill with a task sends the load-skill directive and shows a chip and the task', async () => {
    const { workspace, user } = setup();
    const send = vi.spyOn(workspace, 'send');
    await user.keyboard('/summarize the records{Enter}');
    await waitFor(() => expect(send).toHaveBeenCalledWith({ threadId: 'main', text: 'the records', skill: '/summarize' }));
    const log = screen.getByRole('log', { name: 'Conversation' });
    await waitFor(() => expect(log.querySelector('[data-role="user"]')).toBeTruthy());
    const message = log.querySelector('[data-role="user"]')!;
    expect(within(message as HTMLElement).getByLabelText('Skill /summarize')).toHaveTextContent('/summarize');
    expect(message).toHaveTextContent('the records');
    expect(message.textContent).not.toContain('[load_skill');
    await waitFor(() => expect(log.querySelector('[data-role="assistant"]')?.getAttribute('data-state')).toBe('done'));
  });

  it('Enter on an instruction skill in the list completes it; Enter without a task shows its help', async () => {
    const { workspace, input, user } = setup();
    const send = vi.spyOn(workspace, 'send');
    await user.keyboard('/summ');
    await waitFor(() => expect(options()[0]).toHaveTextContent('/summarize'));
    await user.keyboard('{Enter}');
    expect(input).toHaveValue('/summarize ');
    await user.keyboard('{Enter}');
    const help = await screen.findByText(/Type \/summarize followed by what you want/);
    expect(help.closest('[role="status"]')).toHaveTextContent('/summarize: Summarise records, results or this thread in three plain bullet points.');
    expect(send).not.toHaveBeenCalled();
  });

  it('an unknown word says so and suggests near ones; nothing is sent and the typed text stays in the box', async () => {
    const { workspace, input, user } = setup();
    const send = vi.spyOn(workspace, 'send');
    await user.keyboard('/sumx');
    await waitFor(() => expect(screen.getByText(/No skill matches/)).toBeInTheDocument());
    await user.keyboard(' the quarterly numbers{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Not sent: There is no /sumx here. Did you mean /summarize? Type / to see every skill. Your message is back in the box.');
    expect(input).toHaveValue('/sumx the quarterly numbers');
    expect(send).not.toHaveBeenCalled();
  });

  it('Navigate calls the host, OpenContent opens a panel, Connect calls the workspace and reports errors inline', async () => {
    const docs = catalogNode('acme/Skill/docs', { nodeType: 'Skill', name: '/docs', description: 'Open the help page', skill: { action: { kind: 'OpenContent', contentPath: 'Skill/summarize' }, autoMount: true, launchesSubThread: false } });
    const go = catalogNode('acme/Skill/go', { nodeType: 'Skill', name: '/go', description: 'Go somewhere', skill: { action: { kind: 'Navigate' }, autoMount: true, launchesSubThread: false } });
    const login = catalogNode('acme/Skill/login', { nodeType: 'Skill', name: '/login', description: 'Connect Claude Code', skill: { action: { kind: 'Connect', provider: 'ClaudeCode' }, autoMount: true, launchesSubThread: false } });
    const workspace = createLocalWorkspace({ capabilities: [], space: 'acme', skills: [docs, go, login], driver: createOfflineDriver({ delayMs: 0 }) });
    const onNavigate = vi.fn();
    const { input, user } = setup({ workspace, onNavigate });

    await user.keyboard('/go /records/42{Enter}');
    await waitFor(() => expect(onNavigate).toHaveBeenCalledWith('/records/42'));

    await user.keyboard('/docs{Enter}');
    const panel = await screen.findByRole('dialog', { name: '/summarize' });
    expect(panel).toHaveTextContent('Summarise records, results or this thread');
    expect(panel).toHaveTextContent('Never invent data');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(input).toHaveFocus();

    await user.keyboard('/login{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(/Could not connect ClaudeCode: .*no providers\.connect hook/);
  });
});

describe('the skill offer row', () => {
  const importCsv = defineCapability({
    name: 'records.import_csv', title: 'Import CSV', description: 'Imports records from a CSV file.',
    input: z.object({ file: z.string() }), handler: ({ file }) => textResult(`Imported ${file}.`),
  });
  const enrich = defineCapability({
    name: 'enrich.batch', title: 'Enrich records', description: 'Adds company data to new records.',
    input: z.object({}), handler: () => textResult('Enriched 3 records.'),
  });
  /** A model that imports, then enriches, then reports: the same two steps on every message. */
  const scripted: ModelDriver = {
    info: { id: 'script', label: 'Script' },
    async *respond({ messages }) {
      const last = messages.at(-1)!;
      const plan = ['records.import_csv', 'enrich.batch'];
      const step = last.role === 'tool' ? plan.indexOf(last.capability) + 1 : 0;
      if (step < plan.length) yield { type: 'invoke', capability: plan[step]!, args: plan[step] === 'records.import_csv' ? { file: 'new.csv' } : {} };
      else yield { type: 'text', text: 'Done.' };
    },
  };

  async function offered() {
    const workspace = createLocalWorkspace({ capabilities: [importCsv, enrich], driver: scripted, alignment: 'loose' });
    const view = setup({ workspace });
    await view.user.keyboard('import the new file{Enter}');
    await waitFor(() => expect(screen.getAllByText('Done.')).toHaveLength(1));
    expect(screen.queryByRole('article', { name: /Save this as/ })).toBeNull();
    await view.user.keyboard('import the new file again{Enter}');
    const row = await screen.findByRole('article', { name: 'Save this as /import-csv-then-enrich-records?' });
    return { ...view, workspace, row };
  }

  it('offers to save a request that ran the same steps twice; Save with a new name saves it and it is in the slash list at once', async () => {
    const { workspace, input, user, row } = await offered();
    const decide = vi.spyOn(workspace, 'decide');
    expect(row).toHaveAttribute('data-state', 'pending');
    expect(within(row).getByRole('list', { name: 'Steps' })).toHaveTextContent('Import CSVEnrich records');
    const name = within(row).getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'weekly{Enter}');
    expect(decide).toHaveBeenCalledWith({ threadId: 'main', id: expect.any(String), decision: 'accept', answer: 'weekly' });
    await waitFor(() => expect(row).toHaveAttribute('data-state', 'saved'));
    expect(row).toHaveTextContent('Saved as /weekly');
    await waitFor(() => expect(input).toHaveFocus());
    await user.keyboard('/week');
    await waitFor(() => expect(options().map((o) => o.querySelector('[data-part="slash-option-name"]')?.textContent)).toEqual(['/weekly']));
  });

  it('Dismiss dismisses it and nothing is saved', async () => {
    const { workspace, user, row } = await offered();
    const saveSkill = vi.spyOn(workspace, 'saveSkill');
    await user.click(within(row).getByRole('button', { name: 'Dismiss the skill offer' }));
    await waitFor(() => expect(row).toHaveAttribute('data-state', 'dismissed'));
    expect(row).toHaveTextContent('Dismissed: nothing was saved.');
    expect(saveSkill).not.toHaveBeenCalled();
  });
});
