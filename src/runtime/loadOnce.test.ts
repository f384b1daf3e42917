import { describe, expect, it } from 'vitest';
import { loadOnce } from './loadOnce';

describe('loadOnce', () => {
  it('loads once for every caller meanwhile, and hands the part at once after', async () => {
    let loads = 0;
    const part = loadOnce(async () => ({ n: ++loads }), 'its test code');
    expect(part.current()).toBeUndefined();
    const [a, b] = await Promise.all([part.load(), part.load()]);
    expect(a).toBe(b);
    expect(loads).toBe(1);
    expect(part.current()).toBe(a);
    expect(await part.load()).toBe(a);
    expect(loads).toBe(1);
  });

  it('says in plain words when a load failed, and tries again on the next use', async () => {
    let fail = true;
    const part = loadOnce(async () => {
      if (fail) throw new TypeError('Failed to fetch dynamically imported module: /assets/routes-1.js');
      return 'routes';
    }, "its code for the server's answers");
    const failed = await part.load().then(
      () => null,
      (error: unknown) => error as Error,
    );
    expect(failed?.message).toBe("The chat could not load its code for the server's answers (Failed to fetch dynamically imported module: /assets/routes-1.js). Reload the page to try again.");
    expect(failed?.cause).toBeInstanceOf(TypeError);
    expect(part.current()).toBeUndefined();
    fail = false;
    expect(await part.load()).toBe('routes');
    expect(part.current()).toBe('routes');
  });

  it('makes a part from another part once for every caller meanwhile, and keeps the other load\'s words when it fails', async () => {
    let fail = true;
    const code = loadOnce(async () => {
      if (fail) throw new TypeError('Failed to fetch dynamically imported module: /assets/hostExtras-1.js');
      return { make: () => ({}) };
    }, 'its code for this');
    let made = 0;
    const part = loadOnce(() => code.load().then((m) => (made++, m.make())), 'its code for this');
    const failed = await part.load().then(
      () => null,
      (error: unknown) => error as Error,
    );
    expect(failed?.message).toBe('The chat could not load its code for this (Failed to fetch dynamically imported module: /assets/hostExtras-1.js). Reload the page to try again.');
    fail = false;
    const [a, b] = await Promise.all([part.load(), part.load()]);
    expect(a).toBe(b);
    expect(made).toBe(1);
  });
});
