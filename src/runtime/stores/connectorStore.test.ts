import { createMemoryConnectorStore } from './connectorStore';
import { connectorStoreSuite } from './connectorStore.suite';

connectorStoreSuite('memory', () => createMemoryConnectorStore());
