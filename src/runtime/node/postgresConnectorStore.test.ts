import { describePostgres, testPostgres } from '../../test/postgres';
import { connectorStoreSuite } from '../stores/connectorStore.suite';
import { createPostgresConnectorStore } from './postgresConnectorStore';

const pg = await testPostgres();

describePostgres(pg, () => {
  connectorStoreSuite('PostgreSQL', async () => createPostgresConnectorStore(await pg.open()));
});
