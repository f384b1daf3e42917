import { sessionStoreSuite } from '../../test/sessionStoreSuite';
import { createMemorySessionStore } from './sessionStore';

sessionStoreSuite('memory', ({ now }) => ({ store: createMemorySessionStore({ now }) }));
