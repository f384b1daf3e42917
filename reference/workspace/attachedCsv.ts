import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Authenticate } from '../../src/runtime/principal';
import { readAll, type AttachmentStore } from '../../src/runtime/stores/attachmentStore';
import { parseThreadKey, threadKey } from '../../src/runtime/stores/threadRef';
import type { defineScriptCapability } from 'chatsurface/server';

/** A CSV name the import script takes (its `file` argument's rule). */
const CSV_NAME = /^[\w.-]+\.csv$/;
/** The thread routes whose requests can run the import (a turn, a decision on its proposal). */
const THREAD_ROUTE = /^\/v1\/threads\/([A-Za-z0-9_.-]+)\/(?:turns|decisions)$/;

export interface AttachedCsv {
  /** The attachment store to give the server: every CSV a user uploads is also kept where the import script can read it. */
  store: AttachmentStore;
  /** The folder of the CSV named `name` that was attached in the thread `key` (a thread key), or null: then the import reads the data folder. */
  folderFor(key: string, name: string): string | null;
  /** The same for the thread the request being served is about (the postcondition's row count, which is not told the thread). */
  folderForRequest(name: string): Promise<string | null>;
  /** Serves a request with its thread known to `folderForRequest`. */
  serve<T>(request: Request, work: () => T): T;
}

/**
 * The demo's handoff of an attached CSV to the registered import script: the attachment store is
 * the kit's, wrapped so that a CSV a user attaches is also written to
 * `<folder>/<attachment id>/<its name>`, and the import of that name in that thread
 * (`import this` with the file attached: the offline model proposes `records.import_csv` on it)
 * reads that copy instead of the data folder. Only the thread's owner's uploads count: the
 * lookup is by thread key (space, user, thread). What was attached before the server started
 * is not known to it (the import then reads the data folder, as for any name).
 */
export function attachedCsv(inner: AttachmentStore, folder: string, authenticate: Authenticate): AttachedCsv {
  /** thread key → CSV name → the folder of its newest upload. */
  const byThread = new Map<string, Map<string, string>>();
  const requests = new AsyncLocalStorage<Request>();
  mkdirSync(folder, { recursive: true });

  const store: AttachmentStore = {
    ...inner,
    async put(draft, body) {
      const meta = await inner.put(draft, body);
      if (meta.mediaType === 'text/csv' && CSV_NAME.test(meta.name)) {
        const got = await inner.get({ user: meta.user, space: meta.space }, meta.id);
        if (got) {
          const dir = join(folder, meta.id);
          mkdirSync(dir, { recursive: true });
          writeFileSync(join(dir, meta.name), await readAll(got.body));
          const key = threadKey({ space: meta.space, user: meta.user, id: meta.threadId });
          const names = byThread.get(key) ?? new Map<string, string>();
          names.set(meta.name, dir);
          byThread.set(key, names);
        }
      }
      return meta;
    },
    async delete(owner, id) {
      const removed = await inner.delete(owner, id);
      if (removed) {
        rmSync(join(folder, id), { recursive: true, force: true });
        for (const names of byThread.values()) for (const [name, dir] of names) if (dir === join(folder, id)) names.delete(name);
      }
      return removed;
    },
    meta: (owner, id) => inner.meta(owner, id),
    get: (owner, id) => inner.get(owner, id),
    usage: (owner) => inner.usage(owner),
  };

  const folderFor = (key: string, name: string) => (parseThreadKey(key) ? (byThread.get(key)?.get(name) ?? null) : null);
  return {
    store,
    folderFor,
    async folderForRequest(name) {
      const request = requests.getStore();
      const thread = request ? THREAD_ROUTE.exec(new URL(request.url).pathname)?.[1] : undefined;
      if (!request || !thread) return null;
      const principal = await authenticate(request);
      if (!principal) return null;
      return folderFor(threadKey({ space: principal.space ?? 'default', user: principal.user, id: thread }), name);
    },
    serve: (request, work) => requests.run(request, work),
  };
}

type ScriptCapability = ReturnType<typeof defineScriptCapability>;

/**
 * The import capability, reading the thread's attached CSV of the name it is given when there is
 * one (the script runs with that copy's folder as its data folder), else the data folder's.
 */
export function importWithUploads(define: (dataFolder: string) => ScriptCapability, dataDir: string, uploads: AttachedCsv): ScriptCapability {
  const fromData = define(dataDir);
  return {
    ...fromData,
    source: {
      ...fromData.source,
      handler(args, ctx) {
        const file = (args as { file?: unknown }).file;
        const folder = typeof file === 'string' ? uploads.folderFor(ctx.threadKey, file) : null;
        return (folder ? define(folder) : fromData).source.handler(args, ctx);
      },
    },
  };
}
