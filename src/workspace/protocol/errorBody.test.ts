import { describe, expect, it } from 'vitest';
import { ErrorAnswer } from './answers';
import { readErrorBody } from './errorBody';

describe('readErrorBody', () => {
  // Bodies a server (or something in its place: a proxy, a static host) may answer with.
  const bodies: unknown[] = [
    { error: { code: 'unknown_thread', message: 'No such thread.' } },
    { error: { code: 'busy' } },
    { error: { message: 'Only words.' } },
    { error: {} },
    { error: { code: 'x', message: 'y', issues: [{ path: 'a', message: 'b' }], extra: 1 }, other: true },
    { error: { code: 404 } },
    { error: { code: 'x', message: ['not', 'a', 'string'] } },
    { error: 'a string' },
    { error: null },
    { error: [] },
    { message: 'no error object' },
    [],
    null,
    '<html>Not found</html>',
    42,
    undefined,
  ];

  it('reads every body as ErrorAnswer does: the same refusals, the same code and words', () => {
    for (const body of bodies) {
      const parsed = ErrorAnswer.safeParse(body);
      expect(readErrorBody(body), JSON.stringify(body)).toEqual(parsed.success ? parsed.data.error : null);
    }
  });

  it('keeps only the code and the words of a well-formed body', () => {
    expect(readErrorBody({ error: { code: 'x', message: 'y', issues: [] } })).toEqual({ code: 'x', message: 'y' });
    expect(readErrorBody({ error: { code: 5 } })).toBeNull();
  });
});
