import { describePostgres, testPostgres } from '../../test/postgres';
import { skillStoreSuite } from '../stores/skillStore.suite';
import { createPostgresSkillStore } from './postgresSkillStore';

const pg = await testPostgres();

describePostgres(pg, () => {
  skillStoreSuite('PostgreSQL', async () => createPostgresSkillStore(await pg.open()));
});
