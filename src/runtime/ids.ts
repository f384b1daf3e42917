/** A short random id such as `inv_k3j9x2q8m1`, unique enough for a thread's lifetime. */
export function createId(prefix: string): string {
  const bytes = new Uint8Array(8);
  globalThis.crypto.getRandomValues(bytes);
  let out = '';
  for (const byte of bytes) out += (byte % 36).toString(36);
  return `${prefix}_${out}`;
}
