// @vitest-environment jsdom
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createOfflineDriver } from '../../runtime/offlineDriver';
import { createLocalWorkspace } from '../../workspace/localWorkspace';
import type { TurnRequest, WorkspaceAdapter } from '../../workspace/types';
import { ChatSurfaceRoot } from '../chat-surface/ChatSurfaceRoot';
import { memoryAttachments, type MemoryAttachmentsOptions } from '../attachments/memoryAttachments';
import { Composer } from './Composer';

// The chips and the upload code are a chunk the first file fetches: made ready here, so the tests time the files.
beforeAll(() => import('../attachments/attachParts'));
const created: string[] = [];
beforeEach(() => {
  created.length = 0;
  URL.createObjectURL = vi.fn(() => {
    created.push(`blob:thumb-${created.length}`);
    return created.at(-1)!;
  });
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => vi.restoreAllMocks());

function setup(options: MemoryAttachmentsOptions & { files?: boolean; failSend?: boolean } = {}) {
  const local = createLocalWorkspace({ capabilities: [], driver: createOfflineDriver({ delayMs: 0 }) });
  const api = memoryAttachments(options);
  const sent: TurnRequest[] = [];
  const workspace: WorkspaceAdapter = {
    ...local,
    send: vi.fn(async (request: TurnRequest) => {
      sent.push(request);
      if (options.failSend) throw new Error('The server is away');
    }),
    ...(options.files === false ? {} : { attachments: api }),
  };
  render(
    <ChatSurfaceRoot workspace={workspace}>
      <Composer.Root>
        <Composer.Attach />
        <Composer.Input />
        <Composer.Send />
      </Composer.Root>
    </ChatSurfaceRoot>,
  );
  const input = () => document.querySelector<HTMLInputElement>('[data-part="composer-attach-input"]')!;
  const choose = (...files: File[]) => fireEvent.change(input(), { target: { files } });
  return { api, sent, choose, box: () => screen.getByRole('textbox', { name: 'Message' }) };
}

const csv = () => new File(['name,email\nAda,ada@x.example\n'], 'customers.csv', { type: 'text/csv' });
const png = (name = 'dot.png') => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], name, { type: 'image/png' });
const tray = () => screen.getByRole('list', { name: 'Files to send' });
const chip = (name: string) => within(tray()).getAllByRole('listitem').find((li) => li.textContent?.includes(name))!;

describe('Composer.Attach', () => {
  it('is absent where the workspace keeps no files', () => {
    setup({ files: false });
    expect(screen.queryByRole('button', { name: 'Attach files' })).toBeNull();
  });

  it('opens the file chooser, shows each file as a chip while it uploads, and Send waits for it', async () => {
    const { api, sent, choose, box } = setup({ hold: true });
    const click = vi.spyOn(HTMLInputElement.prototype, 'click').mockImplementation(() => {});
    await userEvent.click(screen.getByRole('button', { name: 'Attach files' }));
    expect(click).toHaveBeenCalled();
    await userEvent.type(box(), 'import this');
    act(() => choose(csv(), png()));
    await waitFor(() => expect(chip('customers.csv')).toHaveAttribute('data-state', 'uploading'));
    expect(chip('customers.csv')).toHaveAttribute('data-kind', 'file');
    expect(chip('customers.csv')).toHaveTextContent('customers.csv 29 bytes');
    expect(within(chip('customers.csv')).getByRole('progressbar', { name: 'Uploading customers.csv' })).toHaveAttribute('value', '14');
    expect(chip('dot.png')).toHaveAttribute('data-kind', 'image');
    expect(chip('dot.png').querySelector('img')).toHaveAttribute('src', 'blob:thumb-0');
    const send = screen.getByRole('button', { name: 'Send' });
    expect(send).toBeDisabled();
    expect(send).toHaveAccessibleDescription('Wait for the files to finish uploading, then send.');
    // Enter says why nothing went.
    await userEvent.type(box(), '{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('Wait for the files to finish uploading, then send.');
    expect(sent).toEqual([]);

    await act(async () => api.release());
    await waitFor(() => expect(chip('customers.csv')).toHaveAttribute('data-state', 'ready'));
    expect(send).toBeEnabled();
    await userEvent.click(send);
    expect(sent).toEqual([{ threadId: expect.any(String), text: 'import this', attachments: [...api.files.keys()] }]);
    expect(screen.queryByRole('list', { name: 'Files to send' })).toBeNull();
    await waitFor(() => expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:thumb-0'));
  });

  it("says a refused file's words on its chip, keeping the message", async () => {
    const { choose, box, api } = setup({ refuse: (_file, name) => (name.endsWith('.png') ? 'This file looks like a Windows program, which cannot be attached here. Attach PNG or CSV.' : null) });
    await userEvent.type(box(), 'keep me');
    act(() => choose(png('photo.png')));
    await waitFor(() => expect(chip('photo.png')).toHaveAttribute('data-state', 'refused'));
    expect(within(chip('photo.png')).getByRole('alert')).toHaveTextContent('photo.png was not attached: This file looks like a Windows program, which cannot be attached here. Attach PNG or CSV.');
    expect(box()).toHaveValue('keep me');
    expect(api.files.size).toBe(0);
    // No thumbnail of bytes the server would not take.
    expect(chip('photo.png')).toHaveAttribute('data-kind', 'file');
    expect(chip('photo.png').querySelector('img')).toBeNull();
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:thumb-0');
  });

  it('refuses files past the message limit without uploading them', async () => {
    const { choose, api } = setup({ maxPerMessage: 1 });
    act(() => choose(csv(), png()));
    await waitFor(() => expect(chip('dot.png')).toHaveAttribute('data-state', 'refused'));
    expect(chip('dot.png')).toHaveTextContent('One message may carry at most 1 file; remove it first.');
    await waitFor(() => expect(chip('customers.csv')).toHaveAttribute('data-state', 'ready'));
    expect([...api.files.values()].map((f) => f.ref.name)).toEqual(['customers.csv']);
  });

  it('removes a chip by its name: the stored file goes, focus moves on', async () => {
    const { choose, api, box } = setup();
    act(() => choose(csv(), png()));
    await waitFor(() => expect(chip('dot.png')).toHaveAttribute('data-state', 'ready'));
    const id = [...api.files.values()].find((f) => f.ref.name === 'customers.csv')!.ref.id;
    await userEvent.click(screen.getByRole('button', { name: 'Remove customers.csv' }));
    await waitFor(() => expect(api.removed).toEqual([id]));
    expect(screen.getByRole('button', { name: 'Remove dot.png' })).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Remove dot.png' }));
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Files to send' })).toBeNull());
    expect(box()).toHaveFocus();
  });

  it('stops an upload when its chip is removed: nothing is kept, Send no longer waits', async () => {
    const { choose, api, box } = setup({ hold: true });
    await userEvent.type(box(), 'hello');
    act(() => choose(csv()));
    await waitFor(() => expect(chip('customers.csv')).toHaveAttribute('data-state', 'uploading'));
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Remove customers.csv' }));
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Files to send' })).toBeNull());
    await act(async () => api.release());
    expect(api.files.size).toBe(0);
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
  });

  it('takes files pasted into the message box, and files dropped on the surface', async () => {
    const { box } = setup();
    fireEvent.paste(box(), { clipboardData: { files: [png('pasted.png')], types: ['Files'] } });
    await waitFor(() => expect(chip('pasted.png')).toHaveAttribute('data-state', 'ready'));
    const surface = document.querySelector<HTMLElement>('[data-chat-surface]')!;
    const dataTransfer = { types: ['Files'], files: [csv()], dropEffect: 'none' };
    fireEvent.dragEnter(surface, { dataTransfer });
    expect(surface.querySelector('[data-part="attach-drop"]')).toHaveTextContent('Drop files to attach them');
    fireEvent.drop(surface, { dataTransfer });
    expect(surface.querySelector('[data-part="attach-drop"]')).toBeNull();
    await waitFor(() => expect(chip('customers.csv')).toHaveAttribute('data-state', 'ready'));
  });

  it('puts the files back when the send fails', async () => {
    const { choose, box } = setup({ failSend: true });
    await userEvent.type(box(), 'import this');
    act(() => choose(csv()));
    await waitFor(() => expect(chip('customers.csv')).toHaveAttribute('data-state', 'ready'));
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Not sent: The server is away. Your message is back in the box.'));
    expect(chip('customers.csv')).toHaveAttribute('data-state', 'ready');
    expect(box()).toHaveValue('import this');
  });
});
