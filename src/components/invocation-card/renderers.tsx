import { useContext, useMemo, useState, type ReactNode } from 'react';
import { InvocationCardDefaultsContext } from './context';
import type { CapabilityRenderer, CapabilityRenderers } from './rendererTypes';

// The host's own component for a capability's result ("tool UI", issue 41 item 5). Only a small
// provider lives here (the types are in ./rendererTypes), so the assembled surface can take
// `renderers` without carrying the card's code: the part that renders them (`InvocationCard.Body`)
// comes with the card's chunk.

/** The renderer of a capability, if the host gave one (own keys only: no `constructor` from the prototype). */
export function rendererOf(renderers: CapabilityRenderers | undefined, capability: string): CapabilityRenderer | undefined {
  if (!renderers || !capability || !Object.hasOwn(renderers, capability)) return undefined;
  return renderers[capability] ?? undefined;
}

/** Renderers of an outer provider and of this one, this one's winning for the same name. */
export function mergeRenderers(outer: CapabilityRenderers | undefined, inner: CapabilityRenderers | undefined): CapabilityRenderers | undefined {
  if (!inner) return outer;
  if (!outer) return inner;
  return { ...outer, ...inner };
}

/**
 * Adds renderers to the card defaults of everything below it, keeping the rest (`details`,
 * `apps`, renderers given further out). What `<ChatSurface renderers>` wraps its parts in.
 */
export function CapabilityRenderersProvider({ renderers: given, children }: { renderers: CapabilityRenderers | undefined; children?: ReactNode }) {
  const outer = useContext(InvocationCardDefaultsContext);
  const renderers = useRenderersBelow(given);
  const value = useMemo(() => (renderers === outer.renderers ? outer : { ...outer, renderers }), [outer, renderers]);
  return <InvocationCardDefaultsContext.Provider value={value}>{children}</InvocationCardDefaultsContext.Provider>;
}

/** The renderers for the cards below: those given here added to those of an outer provider, the same object while nothing changed. */
export function useRenderersBelow(given: CapabilityRenderers | undefined): CapabilityRenderers | undefined {
  const outer = useContext(InvocationCardDefaultsContext).renderers;
  const same = useSameRenderers(given);
  return useMemo(() => mergeRenderers(outer, same), [outer, same]);
}

/**
 * The renderers, the same object while they hold the same components: a host writing
 * `renderers={{ 'records.list': RecordsTable }}` inline makes a new map each render, which must
 * not make every card below read its defaults again.
 */
function useSameRenderers(given: CapabilityRenderers | undefined): CapabilityRenderers | undefined {
  const [kept, keep] = useState(given);
  if (kept === given || sameRenderers(kept, given)) return kept;
  keep(given);
  return given;
}

function sameRenderers(a: CapabilityRenderers | undefined, b: CapabilityRenderers | undefined): boolean {
  if (!a || !b) return a === b;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key]);
}
