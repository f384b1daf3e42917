// @vitest-environment jsdom
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLocalWorkspace } from '../../workspace/localWorkspace';
import type { WorkspaceAdapter } from '../../workspace/types';
import { ChatSurfaceRoot } from '../chat-surface/ChatSurfaceRoot';
import { memoryAttachments } from './memoryAttachments';
import { MessageFiles } from './MessageFiles';

const urls: Blob[] = [];
beforeEach(() => {
  urls.length = 0;
  URL.createObjectURL = vi.fn((blob: Blob) => {
    urls.push(blob);
    return `blob:file-${urls.length - 1}`;
  });
  URL.revokeObjectURL = vi.fn();
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
});
afterEach(() => vi.restoreAllMocks());

function setup(withApi = true) {
  const api = memoryAttachments();
  const workspace: WorkspaceAdapter = { ...createLocalWorkspace({ capabilities: [] }), ...(withApi ? { attachments: api } : {}) };
  const show = (files: Parameters<typeof MessageFiles>[0]['files']) =>
    render(
      <ChatSurfaceRoot workspace={workspace}>
        <MessageFiles files={files} />
      </ChatSurfaceRoot>,
    );
  return { api, show };
}

describe('MessageFiles', () => {
  it('shows an image as a thumbnail that opens full size in a dialog', async () => {
    const { api, show } = setup();
    const ref = api.put(new Blob([new Uint8Array([0x89, 0x50])], { type: 'image/png' }), 'chart.png');
    show([ref]);
    const list = screen.getByRole('list', { name: 'Attached files' });
    const open = await within(list).findByRole('button', { name: 'Open chart.png full size' });
    await waitFor(() => expect(open).toBeEnabled());
    expect(open.querySelector('img')).toHaveAttribute('src', 'blob:file-0');
    await userEvent.click(open);
    const dialog = screen.getByRole('dialog', { name: 'chart.png' });
    expect(within(dialog).getByRole('img', { name: 'chart.png' })).toHaveAttribute('src', 'blob:file-0');
  });

  it('never shows SVG or bytes served as another type as an image', async () => {
    const { api, show } = setup();
    const svg = api.put(new Blob(['<svg onload="alert(1)"/>'], { type: 'image/svg+xml' }), 'logo.svg');
    // A ref that says PNG whose bytes come back as HTML: not shown.
    const lying = { ...api.put(new Blob(['<script>alert(1)</script>'], { type: 'text/html' }), 'photo.png'), media_type: 'image/png' };
    show([svg, lying]);
    expect(screen.getByRole('button', { name: /^Download logo\.svg/ })).toBeInTheDocument();
    await screen.findByText(/^photo\.png cannot be shown: it is text\/html, not an image/);
    expect(document.querySelector('img')).toBeNull();
  });

  it('downloads another file under its name, as bytes, never opened in the page', async () => {
    const { api, show } = setup();
    const ref = api.put(new Blob(['a,b\n1,2\n'], { type: 'text/csv' }), 'customers.csv');
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.download).toBe('customers.csv');
      expect(this.href).toBe('blob:file-0');
    });
    show([ref]);
    await userEvent.click(screen.getByRole('button', { name: 'Download customers.csv (8 bytes)' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(urls[0]!.type).toBe('application/octet-stream');
  });

  it('says a file that is gone cannot be shown, and names the files where the workspace reads none', async () => {
    const { show } = setup();
    show([{ id: 'att_gone', name: 'old.png', media_type: 'image/png', size: 10 }]);
    await screen.findByText('old.png cannot be shown: There is no attachment "att_gone" here.');
    const other = setup(false);
    other.show([{ id: 'att_x', name: 'far.png', media_type: 'image/png', size: 10 }]);
    expect(screen.getByText('far.png')).toBeInTheDocument();
  });
});
