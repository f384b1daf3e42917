import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SqliteHandle } from './sqliteHandle';

/** How often the worker copies the write-ahead log into the database file. */
const CHECKPOINT_EVERY_MS = 200;
/** SQLite's own default: a commit that takes the log past this many pages checkpoints it (on the event loop). */
const AUTOCHECKPOINT_PAGES = 1_000;

/**
 * The worker: its own connection to the file, a PASSIVE checkpoint every `everyMs` (never waiting
 * for a writer, never making one wait), closed when told. CommonJS, evaluated as is.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('wal_autocheckpoint = 0');
const checkpoint = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message || error) });
  }
};
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.postMessage({ ready: true });
parentPort.on('message', (message) => {
  if (message !== 'close') return;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

/** Where better-sqlite3 is, as `requirePeer` finds it (beside this module, then from the working directory). */
function betterSqlitePath(): string | null {
  for (const from of [import.meta.url, join(process.cwd(), 'package.json')]) {
    try {
      return createRequire(from).resolve('better-sqlite3');
    } catch {
      // Try the next place.
    }
  }
  return null;
}

/**
 * Moves SQLite's write-ahead-log checkpoints off the event loop. With the default
 * (`wal_autocheckpoint`), the commit that takes the log past 1,000 pages copies them into the
 * database file and syncs it, on the event loop: 5 to 25 ms during which no request is
 * answered, several times a second under load (the tail of a REST read at 32 connections).
 * Here a worker thread with its own connection checkpoints every 200 ms (PASSIVE: it never
 * waits for a writer nor makes one wait), and this connection no longer checkpoints. Until the
 * worker is up, or if it stops, the connection checkpoints as before. Nothing for `:memory:` or
 * a database not in WAL mode. Resolves the returned `stop` once the worker has checkpointed a
 * last time and closed its connection (call it before closing `db`).
 * @example
 * const stop = checkpointOffThread(sqliteHandle(openWorkspaceDatabase('data/workspace.db')));
 * await stop();
 */
export function checkpointOffThread(db: SqliteHandle): () => Promise<void> {
  const module = db.memory ? null : betterSqlitePath();
  if (!module || String(db.pragma('journal_mode', { simple: true })).toLowerCase() !== 'wal') return async () => undefined;
  let worker: Worker | null = new Worker(WORKER, { eval: true, workerData: { module, file: db.name, everyMs: CHECKPOINT_EVERY_MS } });
  worker.unref();
  const backOnThisThread = () => {
    worker = null;
    try {
      if (db.open) db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    } catch {
      // Closed meanwhile.
    }
  };
  const exited = new Promise<void>((resolve) => {
    worker!.once('exit', () => {
      backOnThisThread();
      resolve();
    });
  });
  worker.on('message', (message: { ready?: boolean; error?: string }) => {
    if (message.ready && worker && db.open) db.pragma('wal_autocheckpoint = 0');
    else if (message.error) console.error('[chatsurface] a checkpoint of the SQLite log failed (the next one tries again):', message.error);
  });
  worker.on('error', (error) => console.error('[chatsurface] the SQLite checkpoint worker stopped; checkpoints are back on the event loop:', error));
  return async () => {
    const running = worker;
    if (!running) return exited;
    backOnThisThread();
    running.postMessage('close');
    await exited;
  };
}
