import { describe, expect, it } from 'vitest';
import { defaultMessages, type MessagesOverride } from './defaults';
import { mergeMessages } from './merge';
import { formatCount, plural, pluralCategory } from './plural';

describe('plural', () => {
  it('picks the plural category each language has for a count', () => {
    expect([0, 1, 2, 3, 10, 11, 99, 100, 102].map((n) => pluralCategory('ar', n))).toEqual(['zero', 'one', 'two', 'few', 'few', 'many', 'many', 'other', 'other']);
    expect([0, 1, 2, 5].map((n) => pluralCategory('en', n))).toEqual(['other', 'one', 'other', 'other']);
    expect([0, 1, 2].map((n) => pluralCategory('fr', n))).toEqual(['one', 'one', 'other']);
    expect([1, 2, 5, 22].map((n) => pluralCategory('pl', n))).toEqual(['one', 'few', 'many', 'few']);
    expect([1, 2].map((n) => pluralCategory('ja', n))).toEqual(['other', 'other']);
  });

  it('uses the form for the category, with the count written for the language where the form has #', () => {
    const rows = plural('ar', { zero: 'لا صفوف', one: 'صف واحد', two: 'صفّان', few: '# صفوف', many: '# صفًا', other: '# صف' });
    expect([0, 1, 2, 3, 11, 100].map(rows)).toEqual(['لا صفوف', 'صف واحد', 'صفّان', `${formatCount('ar', 3)} صفوف`, `${formatCount('ar', 11)} صفًا`, `${formatCount('ar', 100)} صف`]);
    const skills = plural('de', { one: '# Skill passt', other: '# Skills passen' });
    expect(skills(1)).toBe('1 Skill passt');
    expect(skills(1234)).toBe('1.234 Skills passen');
    expect(defaultMessages.slash.count(1)).toBe('1 skill matches');
    expect(defaultMessages.slash.count(12345)).toBe('12,345 skills match');
  });

  it('falls back to the other form for a category a message leaves out', () => {
    const items = plural('ar', { one: 'عنصر واحد', other: '# عنصر' });
    expect(items(1)).toBe('عنصر واحد');
    expect(items(2)).toBe(`${formatCount('ar', 2)} عنصر`);
  });
});

describe('mergeMessages', () => {
  it('replaces the messages given, part by part, and keeps every other one', () => {
    const merged = mergeMessages(defaultMessages, { composer: { send: 'Senden' }, card: { moreRows: plural('de', { one: 'und # weitere Zeile', other: 'und # weitere Zeilen' }) } });
    expect(merged.composer.send).toBe('Senden');
    expect(merged.composer.placeholder).toBe('Ask anything…');
    expect(merged.transcript.label).toBe('Conversation');
    expect(merged.card.moreRows(3)).toBe('und 3 weitere Zeilen');
    expect(merged.card.moreItems(3)).toBe('and 3 more items');
    // The defaults themselves are untouched.
    expect(defaultMessages.composer.send).toBe('Send');
  });

  it('keeps the default for a message set to undefined, and returns the same object when nothing changes', () => {
    expect(mergeMessages(defaultMessages, { composer: { send: undefined as unknown as string } }).composer.send).toBe('Send');
    expect(mergeMessages(defaultMessages, {})).toBe(defaultMessages);
    expect(mergeMessages(defaultMessages, undefined)).toBe(defaultMessages);
  });

  it('refuses, in types, a message the kit does not have', () => {
    // @ts-expect-error `sendd` is not a composer message: a host's typo is a type error.
    const typo: MessagesOverride = { composer: { sendd: 'Senden' } };
    // @ts-expect-error a countable message is a function of its count, not a string.
    const wrong: MessagesOverride = { card: { moreRows: 'und mehr' } };
    expect([typo, wrong]).toHaveLength(2);
  });
});
