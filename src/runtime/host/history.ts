// The model history moved down to src/runtime/history.ts (the engine and the turn record it, and
// may not import the host). This file only keeps threadHost.ts's import working while that file
// is split on branch i38-host: when merging, point the host's imports at '../history' and delete it.
export { appendHistory, historyOf, recordMessage } from '../history';
