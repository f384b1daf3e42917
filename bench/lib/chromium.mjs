// The Chromium every bench launches: the real browser ($CHROMIUM_PATH, default /usr/bin/chromium)
// through `chromium-quiet` beside this file, which turns off the omnibox popup's WebUI pages that
// each new headless window preloads in a renderer of its own (30-50% of a core for about 3 s after
// a Playwright context opens, while the bench measures its page; see chromium-quiet). The shared
// harness's driver gets the same path (`--chromium`), so every page measured, ours and the
// anchors', runs in the same browser. BENCH_CHROMIUM_AS_IS=1 launches the browser itself instead.
import { fileURLToPath } from 'node:url';

export const realChromium = () => process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** The executable path to launch; sets CHROMIUM_REAL for the wrapper (children inherit it). */
export function benchChromium() {
  const real = realChromium();
  if (process.env.BENCH_CHROMIUM_AS_IS === '1') return real;
  process.env.CHROMIUM_REAL = real;
  return fileURLToPath(new URL('./chromium-quiet', import.meta.url));
}
