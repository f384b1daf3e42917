import { createMemoryConnectorStore } from './mcpConnectorStore';
import { connectorStoreSuite } from './mcpConnectorStore.suite';

connectorStoreSuite('memory', () => createMemoryConnectorStore());
