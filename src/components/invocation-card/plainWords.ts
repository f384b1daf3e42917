import type { CapabilityInfo } from '../../runtime/registry';

/**
 * Field names and values in plain words, for cards and rows: the schema's
 * title when it has one, else the name read as words with a capital; units
 * from the name (`duration_ms` 104 → "Duration" "0.1 s"); Yes/No for
 * booleans; "none" for null.
 */

type JsonProperty = { title?: string; description?: string; type?: unknown };

/** The JSON Schema property of a capability's input (or output) field, if the manifest has it. */
export function propertyOf(info: Pick<CapabilityInfo, 'inputSchema' | 'outputSchema'> | undefined, key: string, schema: 'input' | 'output' = 'input'): JsonProperty | undefined {
  const root = schema === 'input' ? info?.inputSchema : info?.outputSchema;
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
let number: Intl.NumberFormat | undefined;

/** A value in one short line, with the unit its field name carries. */
export function plainValue(value: unknown, key = '', maxLength = 80): string {
  const unit = UNIT.exec(key)?.[1];
  let text: string;
  if (value === null || value === undefined) text = 'none';
  else if (typeof value === 'boolean') text = value ? 'Yes' : 'No';
  else if (typeof value === 'number') {
    if (unit === 'ms' || unit === 'millis' || unit === 'milliseconds') text = seconds(value / 1000);
    else if (unit === 'seconds' || unit === 'secs' || unit === 's') text = seconds(value);
    else if (unit === 'bytes') text = bytes(value);
    else text = (number ??= new Intl.NumberFormat('en')).format(value);
  } else if (typeof value === 'string') text = value;
  else if (Array.isArray(value)) text = value.length === 0 ? 'none' : value.map((v) => plainValue(v, '', maxLength)).join(', ');
  else {
    const entries = Object.entries(value as Record<string, unknown>);
    text = entries.length === 0 ? 'none' : entries.map(([k, v]) => `${fieldLabel(k)} ${plainValue(v, k, maxLength)}`).join(', ');
  }
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}

function seconds(s: number): string {
  if (s < 60) return `${s < 10 ? (Math.round(s * 10) / 10).toFixed(1) : Math.round(s)} s`;
  const minutes = Math.floor(s / 60);
  return `${minutes} min ${String(Math.floor(s % 60)).padStart(2, '0')} s`;
}

function bytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
