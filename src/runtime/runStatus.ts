/**
 * Where one run of a capability stands: the same five words on its job (REST's
 * `GET /v1/jobs/{id}`) and on its card (`InvocationRow.state`, the card's
 * `data-state`). `done` when it ran to the end (with or without violations),
 * `failed` when it ended in an error, `cancelled` when the user or host stopped it.
 */
export type RunStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

const ENDED: ReadonlySet<RunStatus> = new Set<RunStatus>(['done', 'failed', 'cancelled']);

/** True for `done`, `failed` and `cancelled`: the run is over. */
export function runEnded(status: RunStatus): boolean {
  return ENDED.has(status);
}
