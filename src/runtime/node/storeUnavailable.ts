/**
 * True for an error that says the database is away (for now), not that the request was wrong:
 * PostgreSQL's connection exceptions (SQLSTATE class 08), its shutdown and start-up states (57P01–
 * 57P03) and too many connections (53300); a socket that was refused, reset or timed out; a pool
 * that could not connect in time or a connection that ended under a query; SQLite's busy or locked
 * file and its I/O errors. The server answers these 503 with Retry-After instead of 500.
 * @example
 * isStoreUnavailable(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })); // → true
 */
export function isStoreUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = String((e as { code?: unknown }).code ?? '');
    if (/^08/.test(code) || ['57P01', '57P02', '57P03', '53300'].includes(code)) return true;
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOENT', 'EHOSTUNREACH', 'ENETUNREACH'].includes(code) && /connect|socket|read|write/i.test(e.message)) return true;
    if (/^SQLITE_(BUSY|LOCKED|IOERR|CANTOPEN|READONLY_DBMOVED)/.test(code)) return true;
    if (/Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly/i.test(e.message)) return true;
  }
  return false;
}
