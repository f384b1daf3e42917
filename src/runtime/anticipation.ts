import type { ActiveView } from './events';

/** A suggested next verb: shown as a chip, invoked with `prefill` and no model call. */
export interface Suggestion {
  capability: string;
  /** The chip's text, in the user's words (e.g. "Enrich the new records"). */
  hint: string;
  /** Arguments the chip invokes with. @default {} */
  prefill?: Record<string, unknown>;
}

/**
 * The host's flat map: key `${activeView.kind}::${lastCapability ?? 'none'}`
 * → up to three suggestions. Looked up synchronously, never by a model.
 */
export type AnticipationMap = Readonly<Record<string, readonly Suggestion[]>>;

/** The anticipation key for a view and the capability that finished last. */
export function anticipationKey(view: ActiveView | null, lastCapability: string | null): string {
  return `${view?.kind ?? 'none'}::${lastCapability ?? 'none'}`;
}

/**
 * The suggestions for this moment: the exact key first, then the view's
 * `::none` entry when nothing is listed after the last capability. At most three.
 * @example
 * suggest(map, { kind: 'record_list' }, 'records.import_csv');
 */
export function suggest(
  map: AnticipationMap | undefined,
  view: ActiveView | null,
  lastCapability: string | null,
): readonly Suggestion[] {
  if (!map) return NONE;
  const exact = map[anticipationKey(view, lastCapability)];
  const list = exact ?? (lastCapability ? map[anticipationKey(view, null)] : undefined) ?? NONE;
  return list.length > 3 ? list.slice(0, 3) : list;
}

const NONE: readonly Suggestion[] = [];
