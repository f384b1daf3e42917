import { describe, expect, it } from 'vitest';
import { readAll, type AttachmentBody, type AttachmentStore } from './attachmentStore';

const ann = { user: 'ann', space: 'acme' };
const bob = { user: 'bob', space: 'acme' };
const bytes = (text: string) => new TextEncoder().encode(text);

async function* chunks(...parts: string[]): AttachmentBody {
  for (const part of parts) yield bytes(part);
}

async function* failingAfter(part: string): AttachmentBody {
  yield bytes(part);
  throw new Error('The file is larger than 20 MB.');
}

/**
 * What every `AttachmentStore` must do; run from each store's test file with
 * a factory giving a fresh, empty store.
 * @example
 * attachmentStoreSuite('memory', () => createMemoryAttachmentStore());
 */
export function attachmentStoreSuite(name: string, make: () => AttachmentStore | Promise<AttachmentStore>): void {
  describe(`AttachmentStore: ${name}`, () => {
    it('stores a streamed body whole and gives it back with what is known of it', async () => {
      const store = await make();
      const big = 'x'.repeat(300_000);
      const meta = await store.put({ ...ann, threadId: 'main', name: 'notes.txt', mediaType: 'text/plain' }, chunks('hello ', big, ' world'));
      expect(meta).toMatchObject({ user: 'ann', space: 'acme', threadId: 'main', name: 'notes.txt', mediaType: 'text/plain', size: 12 + big.length });
      expect(meta.id).toMatch(/^att_/);
      expect(await store.meta(ann, meta.id)).toEqual(meta);
      const got = await store.get(ann, meta.id);
      expect(got?.meta).toEqual(meta);
      expect(new TextDecoder().decode(await readAll(got!.body))).toBe(`hello ${big} world`);
    });

    it('takes the media type from a function once the body has ended', async () => {
      const store = await make();
      let ended = false;
      async function* body(): AttachmentBody {
        yield bytes('a,b\n1,2\n');
        ended = true;
      }
      const meta = await store.put({ ...ann, threadId: 'main', name: 'data.csv', mediaType: () => (ended ? 'text/csv' : 'unknown') }, body());
      expect(meta.mediaType).toBe('text/csv');
      expect((await store.meta(ann, meta.id))?.mediaType).toBe('text/csv');
    });

    it('another owner’s file is not there, to read or to delete', async () => {
      const store = await make();
      const meta = await store.put({ ...ann, threadId: 'main', name: 'a.png', mediaType: 'image/png' }, chunks('png'));
      expect(await store.meta(bob, meta.id)).toBeNull();
      expect(await store.get(bob, meta.id)).toBeNull();
      expect(await store.get({ user: 'ann', space: 'other' }, meta.id)).toBeNull();
      expect(await store.delete(bob, meta.id)).toBe(false);
      expect(await store.meta(ann, meta.id)).not.toBeNull();
      expect(await store.meta(ann, 'att_unknown')).toBeNull();
    });

    it('a body that fails while it is read stores nothing, and says why', async () => {
      const store = await make();
      await expect(store.put({ ...ann, threadId: 'main', name: 'big.bin', mediaType: 'image/png' }, failingAfter('x'.repeat(70_000)))).rejects.toThrow('larger than 20 MB');
      expect(await store.usage(ann)).toEqual({ files: 0, bytes: 0 });
    });

    it('counts an owner’s files and bytes, and forgets a deleted one', async () => {
      const store = await make();
      const a = await store.put({ ...ann, threadId: 'main', name: 'a.txt', mediaType: 'text/plain' }, chunks('12345'));
      await store.put({ ...ann, threadId: 'other', name: 'b.txt', mediaType: 'text/plain' }, chunks('123'));
      await store.put({ ...bob, threadId: 'main', name: 'c.txt', mediaType: 'text/plain' }, chunks('1'));
      expect(await store.usage(ann)).toEqual({ files: 2, bytes: 8 });
      expect(await store.delete(ann, a.id)).toBe(true);
      expect(await store.get(ann, a.id)).toBeNull();
      expect(await store.delete(ann, a.id)).toBe(false);
      expect(await store.usage(ann)).toEqual({ files: 1, bytes: 3 });
      expect(await store.usage(bob)).toEqual({ files: 1, bytes: 1 });
    });

    it('keeps an empty file', async () => {
      const store = await make();
      const meta = await store.put({ ...ann, threadId: 'main', name: 'empty.txt', mediaType: 'text/plain' }, chunks());
      expect(meta.size).toBe(0);
      expect((await readAll((await store.get(ann, meta.id))!.body)).byteLength).toBe(0);
    });
  });
}
