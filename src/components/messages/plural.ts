/**
 * Plurals for the messages object: a countable message is a function of its count, built on
 * `Intl.PluralRules` for its language, so each language names its own categories (English: one,
 * other; Arabic: zero, one, two, few, many, other; Japanese: other only).
 */

/** A plural category of `Intl.PluralRules` (CLDR): zero, one, two, few, many, other. */
export type PluralCategory = Intl.LDMLPluralRule;

/**
 * The forms of a countable message, one per plural category the language uses; `other` is
 * always there and stands in for a category left out. `#` is the count, written for the language.
 * @example
 * { one: '# skill matches', other: '# skills match' }
 */
export type PluralForms = { other: string } & { [K in Exclude<PluralCategory, 'other'>]?: string };

// Made on first use, one per language: a page's first Intl object loads the language's data.
const rules = new Map<string, Intl.PluralRules>();
const numbers = new Map<string, Intl.NumberFormat>();

/** The plural category of `count` in `locale` (e.g. ar: 0 → zero, 2 → two, 5 → few, 11 → many). */
export function pluralCategory(locale: string, count: number): PluralCategory {
  let rule = rules.get(locale);
  if (!rule) rules.set(locale, (rule = new Intl.PluralRules(locale)));
  return rule.select(count);
}

/** `count` written for `locale` (1234 → "1,234" in en, "1.234" in de, "١٬٢٣٤" in ar-EG). */
export function formatCount(locale: string, count: number): string {
  let format = numbers.get(locale);
  if (!format) numbers.set(locale, (format = new Intl.NumberFormat(locale)));
  return format.format(count);
}

/**
 * A countable message: picks the form for the count's plural category in `locale` and puts the
 * count, written for the language, where the form has `#`.
 * @example
 * const matches = plural('en', { one: '# skill matches', other: '# skills match' });
 * matches(1); // '1 skill matches'
 * matches(1200); // '1,200 skills match'
 */
export function plural(locale: string, forms: PluralForms): (count: number) => string {
  return (count) => (forms[pluralCategory(locale, count)] ?? forms.other).replace(/#/g, () => formatCount(locale, count));
}

const percents = new Map<string, Intl.NumberFormat>();

/** A whole percentage written for `locale` (42 → "42%" in en, "42 %" in de, "٤٢٪" in ar-EG). */
export function formatPercent(locale: string, percent: number): string {
  let format = percents.get(locale);
  if (!format) percents.set(locale, (format = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 })));
  return format.format(percent / 100);
}
