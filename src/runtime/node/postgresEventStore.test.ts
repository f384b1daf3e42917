import { describePostgres, testPostgres } from '../../test/postgres';
import { eventStoreSuite } from '../stores/eventStore.suite';
import { threadIndexSuite } from '../stores/threadIndex.suite';
import { createPostgresEventStore } from './postgresEventStore';

const pg = await testPostgres();

describePostgres(pg, () => {
  eventStoreSuite('PostgreSQL', async () => createPostgresEventStore(await pg.open()), {
    // Two pools on one database: two server instances.
    twins: async () => {
      const target = await pg.createDatabase();
      return [createPostgresEventStore(await pg.open(target)), createPostgresEventStore(await pg.open(target))];
    },
  });
  threadIndexSuite('PostgreSQL', async () => createPostgresEventStore(await pg.open()));
});
