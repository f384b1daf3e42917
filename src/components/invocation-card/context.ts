import { createContext, useContext } from 'react';
import type { InvocationRow } from '../../runtime/fold';
import type { CapabilityRenderers } from './rendererTypes';

export interface InvocationCardContextValue {
  row: InvocationRow;
  titleId: string;
}

export const InvocationCardContext = createContext<InvocationCardContextValue | null>(null);

export function useInvocationCard(part: string): InvocationCardContextValue {
  const value = useContext(InvocationCardContext);
  if (!value) throw new Error(`<InvocationCard.${part}> must be used within <InvocationCard.Root row={…}>.`);
  return value;
}

/** What a host sets for every card below it (e.g. no Details disclosure for end users). */
export interface InvocationCardDefaults {
  /** Show the "Details" disclosure (output, fields, raw result). @default true */
  details: boolean;
  /** Show MCP Apps (a tool's `ui://` view) inside cards; `false` keeps every result plain text. @default true */
  apps: boolean;
  /** The host's own component for the body of a capability's cards, by capability name (see `CapabilityRenderer`). */
  renderers?: CapabilityRenderers;
}

export const InvocationCardDefaultsContext = createContext<InvocationCardDefaults>({ details: true, apps: true });
