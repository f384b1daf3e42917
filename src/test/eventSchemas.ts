// Every entry but the page's thread store has the event schemas loaded before it folds (the
// runtime entry, a thread host, a local workspace); tests that fold directly start the same way.
// The page's load on demand is tested with fresh modules in src/runtime/eventChecks.test.ts.
import '../runtime/events';
