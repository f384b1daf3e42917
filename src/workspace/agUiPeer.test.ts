import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MissingPeerError } from '../runtime/peers';
import { loadAgUi } from './agUiPeer';

const notFound = (name: string) => Object.assign(new Error(`Cannot find package '${name}' imported from /app/node_modules/chatsurface/dist/workspace/agUiPeer.js`), { code: 'ERR_MODULE_NOT_FOUND' });

describe('the AG-UI packages, optional peers of chatsurface/ag-ui', () => {
  it('are loaded on the first run: the HttpAgent and the event types', async () => {
    const loaded = await loadAgUi();
    expect(typeof loaded.HttpAgent).toBe('function');
    expect(loaded.EventType.TEXT_MESSAGE_START).toBe('TEXT_MESSAGE_START');
  });

  it('when one is missing, a MissingPeerError names it and the command that installs it', async () => {
    for (const name of ['@ag-ui/client', '@ag-ui/core'] as const) {
      const error = await loadAgUi(() => Promise.reject(notFound(name))).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MissingPeerError);
      expect((error as MissingPeerError).package).toBe(name);
      expect((error as Error).message).toContain(`npm install ${name}`);
    }
  });

  it('any other failure passes through unchanged', async () => {
    const boom = new TypeError('boom');
    await expect(loadAgUi(() => Promise.reject(boom))).rejects.toBe(boom);
  });

  it('the workspace imports them only through that dynamic import (types aside), so chatsurface/ag-ui loads without them', () => {
    for (const file of ['agUiWorkspace.ts', 'agUiPeer.ts']) {
      const text = readFileSync(new URL(`./${file}`, import.meta.url), 'utf8');
      const staticValueImports = [...text.matchAll(/(?:^|\n)\s*(?:import|export)(?!\s+type\s)[^'"]*?from\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!);
      expect(staticValueImports.filter((i) => i.startsWith('@ag-ui/'))).toEqual([]);
    }
    expect(readFileSync(new URL('./agUiPeer.ts', import.meta.url), 'utf8')).toMatch(/import\('@ag-ui\/client'\)/);
  });
});
