import { useMemo } from 'react';
import type { CapabilityInfo } from '../../runtime/registry';
import { useLocale, useMessages } from '../messages/context';
import { defaultMessages, type ChatSurfaceMessages } from '../messages/defaults';

/** The words and language values are written in (the surface's `messages.values` and `locale`). */
export interface ValueWords {
  words: ChatSurfaceMessages['values'];
  locale: string;
}

const ENGLISH: ValueWords = { words: defaultMessages.values, locale: 'en' };

/** The surface's words and language for values, for `plainValue`. */
export function useValueWords(): ValueWords {
  const words = useMessages().values;
  const locale = useLocale();
  return useMemo(() => ({ words, locale }), [words, locale]);
}

/**
 * Field names and values in plain words, for cards and rows: the schema's
 * title when it has one, else the name read as words with a capital; units
 * from the name (`duration_ms` 104 → "Duration" "0.1 s"); Yes/No for
 * booleans; "none" for null.
 */

type JsonProperty = { title?: string; description?: string; type?: unknown };

/** The JSON Schema property of a capability's input (or output) field, if the manifest has it. */
export function propertyOf(info: Pick<CapabilityInfo, 'inputSchema' | 'outputSchema'> | undefined, key: string, schema: 'input' | 'output' = 'input'): JsonProperty | undefined {
  let root: Record<string, unknown> | undefined;
  try {
    root = schema === 'input' ? info?.inputSchema : info?.outputSchema;
  } catch {
    // A page's own workspace converts its schemas on first use (`loadSchemas`): a row shown
    // before then names its fields by their keys rather than fail.
    return undefined;
  }
  const properties = (root?.properties ?? {}) as Record<string, JsonProperty>;
  return properties[key];
}

const UNIT = /(?:^|_)(ms|millis|milliseconds|seconds|secs|s|bytes)$/;

/** A field's label: its schema title, else its name as words ("duration_ms" → "Duration"). */
export function fieldLabel(key: string, property?: JsonProperty): string {
  if (property?.title?.trim()) return property.title.trim();
  const words = key.replace(UNIT, '').replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_.-]+/g, ' ').trim().toLowerCase() || key;
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Made on first use: a page's first `Intl` formatter loads the locale data (about 11 ms in
 * Chromium), which would otherwise land in whatever frame evaluates this module, such as a reply
 * streaming while the turn rows load.
 */
const numbers = new Map<string, Intl.NumberFormat>();
function numberIn(locale: string, fraction?: number): Intl.NumberFormat {
  const key = `${locale}\u0000${fraction ?? ''}`;
  let format = numbers.get(key);
  if (!format) numbers.set(key, (format = new Intl.NumberFormat(locale, fraction === undefined ? {} : { minimumFractionDigits: fraction, maximumFractionDigits: fraction, useGrouping: false })));
  return format;
}

/** A value in one short line, with the unit its field name carries. */
export function plainValue(value: unknown, key = '', maxLength = 80, words: ValueWords = ENGLISH): string {
  const w = words.words;
  const unit = UNIT.exec(key)?.[1];
  let text: string;
  if (value === null || value === undefined) text = w.none;
  else if (typeof value === 'boolean') text = value ? w.yes : w.no;
  else if (typeof value === 'number') {
    if (unit === 'ms' || unit === 'millis' || unit === 'milliseconds') text = seconds(value / 1000, words);
    else if (unit === 'seconds' || unit === 'secs' || unit === 's') text = seconds(value, words);
    else if (unit === 'bytes') text = bytes(value, words);
    else text = numberIn(words.locale).format(value);
  } else if (typeof value === 'string') text = value;
  else if (Array.isArray(value)) text = value.length === 0 ? w.none : value.map((v) => plainValue(v, '', maxLength, words)).join(', ');
  else {
    const entries = Object.entries(value as Record<string, unknown>);
    text = entries.length === 0 ? w.none : entries.map(([k, v]) => `${fieldLabel(k)} ${plainValue(v, k, maxLength, words)}`).join(', ');
  }
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}

function seconds(s: number, { words, locale }: ValueWords): string {
  if (s < 60) return words.seconds(s < 10 ? numberIn(locale, 1).format(Math.round(s * 10) / 10) : numberIn(locale, 0).format(Math.round(s)));
  const minutes = Math.floor(s / 60);
  return words.minutes(numberIn(locale, 0).format(minutes), numberIn(locale, 0).format(Math.floor(s % 60)).padStart(2, numberIn(locale, 0).format(0)));
}

function bytes(n: number, { words, locale }: ValueWords): string {
  if (n < 1024) return words.bytes(numberIn(locale, 0).format(n));
  if (n < 1024 * 1024) return words.kilobytes(numberIn(locale, 1).format(n / 1024));
  return words.megabytes(numberIn(locale, 1).format(n / 1024 / 1024));
}
