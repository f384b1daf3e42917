const POOL = 4096;
let pool = new Uint8Array(0);
let at = POOL;

/** A short random id such as `inv_k3j9x2q8m1`, unique enough for a thread's lifetime. */
export function createId(prefix: string): string {
  // One getRandomValues call per 512 ids: the call itself, not the bytes, is what costs.
  if (at + 10 > pool.length) {
    pool = new Uint8Array(POOL);
    globalThis.crypto.getRandomValues(pool);
    at = 0;
  }
  let out = '';
  for (let i = 0; i < 10; i++) out += (pool[at++]! % 36).toString(36);
  return `${prefix}_${out}`;
}
