import { config, core } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

/**
 * Gives `zod/mini` schemas the English messages classic `zod` has by default
 * (`Invalid input: expected string, received undefined`); mini ships none and
 * would say only `Invalid input`. A locale the host chose first is kept.
 * Each schema module calls it at its top level, so a bundle that keeps the
 * module's schemas keeps the call too.
 */
export function ensureEnglishMessages(): void {
  if (!core.globalConfig.localeError) config(en());
}
