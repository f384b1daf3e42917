import { eventStoreSuite } from '../stores/eventStore.suite';
import { openWorkspaceDatabase } from './sqliteDatabase';
import { createSqliteEventStore } from './sqliteEventStore';

eventStoreSuite('SQLite', () => createSqliteEventStore(openWorkspaceDatabase(':memory:')));
