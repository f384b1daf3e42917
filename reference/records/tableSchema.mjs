// @ts-check
// Frictionless Table Schema (Data Package v2): casting and validating one row's
// string cells into typed values. Plain JavaScript so the CSV ingest script can
// run under bare Node; the TypeScript side imports it with its JSDoc types.

/**
 * @typedef {'string'|'number'|'integer'|'boolean'|'date'|'datetime'|'year'|'any'} FieldType
 * @typedef {{
 *   required?: boolean, unique?: boolean, minLength?: number, maxLength?: number,
 *   minimum?: number, maximum?: number, pattern?: string, enum?: unknown[]
 * }} Constraints
 * @typedef {{ name: string, title?: string, description?: string, type?: FieldType, format?: string, constraints?: Constraints }} Field
 * @typedef {{ fields: Field[], missingValues?: string[], primaryKey?: string | string[] }} TableSchema
 * @typedef {{ field: string, message: string }} CellError
 */

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/;
const TRUE = ['true', 'True', 'TRUE', '1'];
const FALSE = ['false', 'False', 'FALSE', '0'];

/**
 * Casts one cell by its field descriptor.
 * @param {Field} field
 * @param {string} raw
 * @returns {{ ok: true, value: unknown } | { ok: false, message: string }}
 */
export function castCell(field, raw) {
  const type = field.type ?? 'any';
  const format = (field.format ?? 'default').replace(/^fmt:/, '');
  switch (type) {
    case 'string':
      if (format === 'email' && !EMAIL.test(raw)) return fail(`"${raw}" is not an email address`);
      if (format === 'uri' && !isUri(raw)) return fail(`"${raw}" is not a URI`);
      if (format === 'uuid' && !UUID.test(raw)) return fail(`"${raw}" is not a UUID`);
      return { ok: true, value: raw };
    case 'integer': {
      if (!/^[+-]?\d+$/.test(raw.trim())) return fail(`"${raw}" is not a whole number`);
      return { ok: true, value: Number(raw) };
    }
    case 'number': {
      const text = raw.trim();
      if (text === 'NaN') return { ok: true, value: Number.NaN };
      if (text === 'INF') return { ok: true, value: Number.POSITIVE_INFINITY };
      if (text === '-INF') return { ok: true, value: Number.NEGATIVE_INFINITY };
      if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text)) return fail(`"${raw}" is not a number`);
      return { ok: true, value: Number(text) };
    }
    case 'boolean':
      if (TRUE.includes(raw)) return { ok: true, value: true };
      if (FALSE.includes(raw)) return { ok: true, value: false };
      return fail(`"${raw}" is not true or false`);
    case 'date':
      if (!DATE.test(raw) || !isCalendarDate(raw)) return fail(`"${raw}" is not a date (yyyy-mm-dd)`);
      return { ok: true, value: raw };
    case 'datetime':
      if (!DATETIME.test(raw) || !isCalendarDate(raw.slice(0, 10)) || Number.isNaN(Date.parse(raw))) return fail(`"${raw}" is not a date-time (e.g. 2024-01-26T15:00:00)`);
      return { ok: true, value: raw };
    case 'year':
      if (!/^\d{4}$/.test(raw)) return fail(`"${raw}" is not a year (YYYY)`);
      return { ok: true, value: Number(raw) };
    case 'any':
      return { ok: true, value: raw };
    default:
      return fail(`field type "${type}" is not supported`);
  }
}

/**
 * Casts and validates one row of string cells against a schema.
 * @param {TableSchema} schema
 * @param {Record<string, string | undefined>} cells
 * @returns {{ ok: true, record: Record<string, unknown> } | { ok: false, errors: CellError[] }}
 */
export function castRow(schema, cells) {
  const missing = schema.missingValues ?? [''];
  /** @type {Record<string, unknown>} */
  const record = {};
  /** @type {CellError[]} */
  const errors = [];
  for (const field of schema.fields) {
    const raw = cells[field.name];
    const c = field.constraints ?? {};
    if (raw === undefined || missing.includes(raw.trim())) {
      if (c.required) errors.push({ field: field.name, message: 'is required' });
      else record[field.name] = null;
      continue;
    }
    const cast = castCell(field, raw.trim());
    if (!cast.ok) {
      errors.push({ field: field.name, message: cast.message });
      continue;
    }
    const problem = checkConstraints(cast.value, c);
    if (problem) errors.push({ field: field.name, message: problem });
    else record[field.name] = cast.value;
  }
  return errors.length ? { ok: false, errors } : { ok: true, record };
}

/**
 * @param {unknown} value
 * @param {Constraints} c
 * @returns {string | null}
 */
function checkConstraints(value, c) {
  if (typeof value === 'string') {
    if (c.minLength !== undefined && value.length < c.minLength) return `is shorter than ${c.minLength} characters`;
    if (c.maxLength !== undefined && value.length > c.maxLength) return `is longer than ${c.maxLength} characters`;
    if (c.pattern !== undefined && !new RegExp(`^(?:${c.pattern})$`).test(value)) return `does not match ${c.pattern}`;
  }
  if (typeof value === 'number') {
    if (c.minimum !== undefined && value < c.minimum) return `is below the minimum ${c.minimum}`;
    if (c.maximum !== undefined && value > c.maximum) return `is above the maximum ${c.maximum}`;
  }
  if (c.enum !== undefined && !c.enum.includes(value)) return `must be one of ${c.enum.join(', ')}`;
  return null;
}

/** A real day of the calendar: 2021-02-30 is not. @param {string} ymd */
function isCalendarDate(ymd) {
  const [y, m, d] = ymd.split('-').map(Number);
  const date = new Date(Date.UTC(/** @type {number} */ (y), /** @type {number} */ (m) - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === /** @type {number} */ (m) - 1 && date.getUTCDate() === d;
}

/** @param {string} text */
function isUri(text) {
  try {
    const url = new URL(text);
    return Boolean(url.protocol);
  } catch {
    return false;
  }
}

/** @param {string} message @returns {{ ok: false, message: string }} */
function fail(message) {
  return { ok: false, message };
}
