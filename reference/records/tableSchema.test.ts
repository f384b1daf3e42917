import { describe, expect, it } from 'vitest';
import { recordSchema } from './schema.mjs';
import { castCell, castRow } from './tableSchema.mjs';

describe('Frictionless Table Schema casting', () => {
  it.each([
    [{ name: 'n', type: 'integer' }, ' 42 ', 42],
    [{ name: 'n', type: 'number' }, '-1.5e3', -1500],
    [{ name: 'n', type: 'number' }, 'INF', Number.POSITIVE_INFINITY],
    [{ name: 'b', type: 'boolean' }, 'TRUE', true],
    [{ name: 'b', type: 'boolean' }, '0', false],
    [{ name: 'd', type: 'date' }, '2024-02-29', '2024-02-29'],
    [{ name: 'd', type: 'datetime' }, '2024-01-26T15:00:00Z', '2024-01-26T15:00:00Z'],
    [{ name: 'y', type: 'year' }, '1999', 1999],
    [{ name: 's', type: 'string', format: 'email' }, 'ada@example.org', 'ada@example.org'],
    [{ name: 's', type: 'string', format: 'fmt:uri' }, 'https://example.org/x', 'https://example.org/x'],
  ] as const)('casts %o from %s', (field, raw, value) => {
    expect(castCell(field, raw)).toEqual({ ok: true, value });
  });

  it.each([
    [{ name: 'n', type: 'integer' }, '4.5', 'is not a whole number'],
    [{ name: 'n', type: 'number' }, '1,5', 'is not a number'],
    [{ name: 'b', type: 'boolean' }, 'yes', 'is not true or false'],
    [{ name: 'd', type: 'date' }, '2021-02-30', 'is not a date'],
    [{ name: 'd', type: 'datetime' }, '2021-13-01T00:00:00', 'is not a date-time'],
    [{ name: 's', type: 'string', format: 'email' }, 'ada(at)example', 'is not an email address'],
    [{ name: 's', type: 'string', format: 'uuid' }, '1234', 'is not a UUID'],
  ] as const)('refuses %o from %s', (field, raw, message) => {
    const cast = castCell(field, raw);
    expect(cast.ok).toBe(false);
    expect(!cast.ok && cast.message).toContain(message);
  });

  it('casts a good record and nulls its missing optional cells', () => {
    expect(castRow(recordSchema, { name: 'Ada', email: 'ada@x.example', employees: '12', country: 'GB', website: '', since: '2021-03-04' })).toEqual({
      ok: true,
      record: { name: 'Ada', email: 'ada@x.example', company: null, website: null, employees: 12, country: 'GB', since: '2021-03-04' },
    });
  });

  it('names every bad field of a row: required, format, type and constraints', () => {
    const cast = castRow(recordSchema, { name: '', email: 'nope', employees: '-3', country: 'gbr' });
    expect(cast).toEqual({
      ok: false,
      errors: [
        { field: 'name', message: 'is required' },
        { field: 'email', message: '"nope" is not an email address' },
        { field: 'employees', message: 'is below the minimum 0' },
        { field: 'country', message: 'does not match [A-Z]{2}' },
      ],
    });
  });
});
