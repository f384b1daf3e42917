import { eventStoreSuite } from './eventStore.suite';
import { createMemoryEventStore } from './eventStore';

eventStoreSuite('memory', () => createMemoryEventStore());
