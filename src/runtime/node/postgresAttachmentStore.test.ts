import { expect, it } from 'vitest';
import { describePostgres, testPostgres } from '../../test/postgres';
import { attachmentStoreSuite } from '../stores/attachmentStore.suite';
import { readAll } from '../stores/attachmentStore';
import { createPostgresAttachmentStore } from './postgresAttachmentStore';

const pg = await testPostgres();
const ann = { user: 'ann', space: 'acme' };

describePostgres(pg, () => {
  attachmentStoreSuite('PostgreSQL', async () => createPostgresAttachmentStore(await pg.open()));

  it('two instances on one database read each other’s files, chunk by chunk', async () => {
    const target = await pg.createDatabase();
    const a = createPostgresAttachmentStore(await pg.open(target));
    const b = createPostgresAttachmentStore(await pg.open(target));
    const bytes = new Uint8Array(600_000).map((_, i) => i % 251);
    const meta = await a.put({ ...ann, threadId: 'main', name: 'big.bin', mediaType: 'application/pdf' }, (async function* () {
      for (let at = 0; at < bytes.length; at += 100_000) yield bytes.subarray(at, at + 100_000);
    })());
    expect(await readAll((await b.get(ann, meta.id))!.body)).toEqual(bytes);
  });

  it('a file still arriving is not there to read or count', async () => {
    const store = createPostgresAttachmentStore(await pg.open());
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const putting = store.put({ ...ann, threadId: 'main', name: 'slow.txt', mediaType: 'text/plain' }, (async function* () {
      yield new TextEncoder().encode('first');
      await held;
      yield new TextEncoder().encode(' second');
    })());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await store.usage(ann)).toEqual({ files: 0, bytes: 0 });
    release();
    const meta = await putting;
    expect(await store.usage(ann)).toEqual({ files: 1, bytes: meta.size });
  });
});
