import { useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { CatalogNode } from '../runtime/catalogNodes';
import { SKILL_DISCOVERY_QUERY } from '../runtime/slash/skillDirectory';
import { useChatSurface } from './context';
import { nodeQueryKey, useNodeQuery } from './useNodeQuery';
import { threadFacts } from './threadFacts';
import { useThreadSelector } from './useThread';

/**
 * The slash skills this user may run, in the order the discovery query gives
 * (`namespace:{user}/Skill|{space}/Skill|Skill nodeType:Skill sort:order`),
 * cached per workspace. A skill saved from an offer in this thread refreshes
 * the list at once.
 * @example
 * const { data: skills = [], error } = useSkillDiscovery();
 */
export function useSkillDiscovery(): UseQueryResult<CatalogNode[], Error> {
  const { workspace } = useChatSurface();
  const client = useQueryClient();
  const saved = useThreadSelector((t) => threadFacts(t).savedSkillOffers);
  const seen = useRef(saved);
  useEffect(() => {
    if (seen.current === saved) return;
    seen.current = saved;
    void client.invalidateQueries({ queryKey: nodeQueryKey(workspace) });
  }, [saved, client, workspace]);
  return useNodeQuery(SKILL_DISCOVERY_QUERY);
}

/** The discovery query's text, as sent to `workspace.query`. */
export { SKILL_DISCOVERY_QUERY };
