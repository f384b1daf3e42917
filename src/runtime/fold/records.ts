/*
 * The fold's plain records: prototype-less, so ids such as `__proto__` or `constructor` are
 * ordinary keys, and read through `own`, so a state restored from JSON (whose records have a
 * prototype) reads the same.
 */

/** A prototype-less record, copied from `from` when given. */
export function record<T>(from?: Readonly<Record<string, T>>): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, from);
}

/** `record[key]` when it is the record's own entry. */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** A copy of the record with `key` set to the higher of its value and `seq`; null when it is already that high. */
export function withMax(from: Readonly<Record<string, number>>, key: string, seq: number): Record<string, number> | null {
  if ((own(from, key) ?? 0) >= seq) return null;
  const copy = record(from);
  copy[key] = seq;
  return copy;
}
