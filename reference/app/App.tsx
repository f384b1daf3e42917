import { ChatSurface, type WorkspaceAdapter } from 'chatsurface';
import type { ActiveView } from 'chatsurface/runtime';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { RecordRow } from '../records/store';
import { RecordsView } from './RecordsView';
import { SignedInUser } from './SignedInUser';

const THREAD = 'main';

/** The reference host app: its records screen beside the chat, one origin with the kit's server. */
/** What the welcome offers before the first message. */
const STARTERS = ['What can you do?', 'Show the records'];

export function App({ workspace }: { workspace: WorkspaceAdapter }) {
  const [records, setRecords] = useState<RecordRow[]>([]);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [selectedId, setSelectedId] = useState<number | null>(null);

  const refresh = useCallback(async () => {
    try {
      const response = await fetch('/app/records');
      if (!response.ok) throw new Error(`the server answered ${response.status}`);
      const body = (await response.json()) as { records: RecordRow[]; total: number };
      setRecords(body.records);
      setTotal(body.total);
      setError(null);
    } catch (reason) {
      setError(`Could not load the records: ${reason instanceof Error ? reason.message : String(reason)}.`);
    }
  }, []);

  // The list follows the chat: any capability that settles or reports progress may have changed it.
  useEffect(() => {
    void refresh();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const stop = workspace.subscribe(THREAD, (event) => {
      if (event.type === 'capability.done' || event.type === 'capability.error' || event.type === 'capability.progress') {
        timer ??= setTimeout(() => {
          timer = null;
          void refresh();
        }, 150);
      }
    });
    return () => {
      stop();
      if (timer) clearTimeout(timer);
    };
  }, [workspace, refresh]);

  const selected = records.find((r) => r.id === selectedId) ?? null;
  const view = useMemo<ActiveView>(
    () => (selected ? { kind: 'record_detail', id: String(selected.id), title: selected.name } : { kind: 'record_list', title: 'Records' }),
    [selected],
  );

  return (
    <div className="app">
      <header className="app-header">
        <h1>Records</h1>
        <p>A reference host app: its own records screen, with the ChatSurface kit beside it.</p>
        <SignedInUser />
      </header>
      <main className="app-main">
        <RecordsView records={records} total={total} selected={selected} onSelect={(r) => setSelectedId(r?.id ?? null)} error={error} />
        <ChatSurface workspace={workspace} defaultThreadId={THREAD} activeView={view} className="app-chat" starters={STARTERS} />
      </main>
    </div>
  );
}
