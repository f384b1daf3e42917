import { capStoreSuite } from './capStore.suite';
import { createMemoryCapStore } from './capStore';

capStoreSuite('memory', () => createMemoryCapStore());
