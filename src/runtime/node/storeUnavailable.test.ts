import { describe, expect, it } from 'vitest';
import { isStoreUnavailable } from './storeUnavailable';

const coded = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isStoreUnavailable', () => {
  it('knows a database that is away from one that refused the request', () => {
    for (const away of [
      coded('connect ECONNREFUSED /tmp/pg/.s.PGSQL.5432', 'ECONNREFUSED'),
      coded('terminating connection due to administrator command', '57P01'),
      coded('the database system is starting up', '57P03'),
      coded('sorry, too many clients already', '53300'),
      coded('connection failure', '08006'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      coded('database is locked', 'SQLITE_BUSY'),
      coded('disk I/O error', 'SQLITE_IOERR_WRITE'),
      new Error('append failed', { cause: coded('read ECONNRESET', 'ECONNRESET') }),
    ]) {
      expect(isStoreUnavailable(away), away.message).toBe(true);
    }
    for (const wrong of [
      coded('duplicate key value violates unique constraint', '23505'),
      coded('syntax error at or near "SELEC"', '42601'),
      coded('UNIQUE constraint failed: jobs.id', 'SQLITE_CONSTRAINT_PRIMARYKEY'),
      new Error('The handler threw.'),
      coded('ENOENT: no such file or directory, open skills/x.md', 'ENOENT'),
      'not an error',
    ]) {
      expect(isStoreUnavailable(wrong), String(wrong)).toBe(false);
    }
  });
});
