import { describe, expect, it } from 'vitest';
import { parsePartialJson } from './partialJson';

describe('parsePartialJson: a JSON text as far as the model has written it', () => {
  it.each([
    ['', undefined],
    ['{', {}],
    ['{"st', {}],
    ['{"stage"', {}],
    ['{"stage":', {}],
    ['{"stage": "le', { stage: 'le' }],
    ['{"stage": "lead", "limit": 1', { stage: 'lead', limit: 1 }],
    ['{"stage": "lead", "limit": 12}', { stage: 'lead', limit: 12 }],
    ['{"a": tru', {}],
    ['{"a": true, "b": nu', { a: true }],
    ['{"a": -', {}],
    ['{"a": 1.', {}],
    ['{"a": 2e', {}],
    ['{"a": [1, 2, ', { a: [1, 2] }],
    ['{"records": [{"name": "Ada"}, {"na', { records: [{ name: 'Ada' }, {}] }],
    ['[{"x": "a\\"b', [{ x: 'a"b' }]],
    ['{"text": "line\\', { text: 'line' }],
    ['{"text": "caf\\u00e', { text: 'caf' }],
    ['{"text": "caf\\u00e9"', { text: 'café' }],
    ['"half a str', 'half a str'],
  ])('%j → %j', (text, value) => {
    expect(parsePartialJson(text)).toEqual(value);
  });

  it('gives what JSON.parse gives for whole JSON', () => {
    const whole = '{"a": [1, {"b": null}], "c": "d", "e": -1.5e3}';
    expect(parsePartialJson(whole)).toEqual(JSON.parse(whole));
  });

  it('gives undefined for text that is not JSON, however far it is written', () => {
    expect(parsePartialJson('{stage: 1}')).toBeUndefined();
    expect(parsePartialJson('{"a" 1')).toBeUndefined();
    expect(parsePartialJson('{"a": 1} trailing')).toBeUndefined();
    expect(parsePartialJson('nope')).toBeUndefined();
  });

  it('keeps a key named __proto__ as data, never as the prototype', () => {
    const value = parsePartialJson('{"__proto__": {"polluted": true}, "a": 1') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
