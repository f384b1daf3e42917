import { useEffect } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useNodeQuery } from '../../hooks/useNodeQuery';
import { useSkillDiscovery } from '../../hooks/useSkillDiscovery';
import type { CatalogNode } from '../../runtime/catalogNodes';
import { lastSegment, namespaceQuery, nodeAt } from './findNode';

// The parts of the slash UI that run node queries (React Query's observer and hooks): a chunk of
// their own (see deferredParts.tsx), fetched with the skill list once the user steps into the
// message box, or when a picked harness, agent or model is first named in the status row.

/** What the discovery query has given so far. */
export type Discovered = Pick<UseQueryResult<CatalogNode[], Error>, 'data' | 'isError' | 'error'>;

export interface SkillDiscoveryProps {
  onChange: (result: Discovered) => void;
}

/** Runs the discovery query (mounted once the user steps in) and hands each result to Slash.Root. */
export function SkillDiscovery({ onChange }: SkillDiscoveryProps) {
  const { data, isError, error } = useSkillDiscovery();
  useEffect(() => onChange({ data, isError, error }), [onChange, data, isError, error]);
  return null;
}

export interface StatusNameProps {
  /** The picked node's path. */
  path: string;
  nodeType: string;
}

/** A picked node's name in the status row: its path's last segment until the node is known. */
export function StatusName({ path, nodeType }: StatusNameProps) {
  const query = namespaceQuery(path, nodeType);
  const nodes = useNodeQuery(query ?? '', query !== null);
  return <>{nodeAt(nodes.data, path)?.name ?? lastSegment(path)}</>;
}
