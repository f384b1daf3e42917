import { threadIndexSuite } from './threadIndex.suite';
import { createMemoryEventStore } from './eventStore';

threadIndexSuite('memory', () => createMemoryEventStore());
