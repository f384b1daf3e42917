import type { Principal } from '../principal';
import { spaceOf } from '../principal';
import type { SkillStore } from '../stores/skillStore';
import type { Catalog } from './catalog';
import { dropSavedSkills, placeStoredSkill } from './skillDirectory';

export interface SkillLoaderOptions {
  /**
   * Saved skills kept in memory at most (a user's or a space's are loaded and
   * dropped together, the least recently asked for first). @default 10000
   */
  maxSkills?: number;
  /** Hears a stored skill that was left out (see `loadStoredSkills`). @default console.warn */
  onProblem?: (problem: string) => void;
}

/** Loads saved skills into a shared catalog when a principal first needs them. */
export interface SkillLoader {
  /**
   * Makes the principal's own skills (`{user}/Skill`) and its space's
   * (`{space}/Skill`) present in the catalog, reading the store for those
   * not in memory. Call before serving the principal (the slash list, a
   * turn, a skill invocation).
   */
  ensure(principal: Principal): Promise<void>;
  /** Namespaces whose saved skills are in memory now. */
  readonly namespaces: number;
  /** Saved skills in memory now (as counted when their namespace was loaded). */
  readonly skills: number;
}

/**
 * Saved skills on demand: nothing is read at start, so start-up costs the
 * same with 5 or 500,000 stored skills. A principal's namespaces are read
 * (one query each) on first need and kept in a bounded cache; a namespace
 * dropped from it is read again on its next request. Concurrent first
 * requests share one read.
 * @example
 * const skills = createSkillLoader(catalog, createSqliteSkillStore(db));
 * await skills.ensure(principal); // before the principal's slash list or turn
 */
export function createSkillLoader(catalog: Catalog, store: SkillStore, options: SkillLoaderOptions = {}): SkillLoader {
  const maxSkills = options.maxSkills ?? 10_000;
  const onProblem = options.onProblem ?? ((problem: string) => console.warn(`[chatsurface] a stored skill was skipped: ${problem}`));
  /** Loaded namespaces, least recently asked for first, with how many skills each brought. */
  const loaded = new Map<string, number>();
  const loading = new Map<string, Promise<void>>();
  let total = 0;

  const load = async (namespace: string) => {
    const stored = await store.list(namespace);
    let count = 0;
    for (const node of stored) {
      // A store that ignored the namespace answers with more: only this namespace's are kept.
      if (node?.namespace !== namespace) continue;
      const problem = placeStoredSkill(catalog, node);
      if (problem) onProblem(problem);
      else count++;
    }
    loaded.set(namespace, count);
    total += count;
  };

  const touch = (namespace: string): Promise<void> | null => {
    const count = loaded.get(namespace);
    if (count !== undefined) {
      loaded.delete(namespace);
      loaded.set(namespace, count);
      return null;
    }
    let pending = loading.get(namespace);
    if (!pending) {
      pending = load(namespace).finally(() => loading.delete(namespace));
      loading.set(namespace, pending);
    }
    return pending;
  };

  /** Drops the least recently asked for namespaces until the cache fits, never those of the principal being served. */
  const trim = (keep: readonly string[]) => {
    for (const [namespace, count] of loaded) {
      if (total <= maxSkills) break;
      if (keep.includes(namespace)) continue;
      loaded.delete(namespace);
      total -= count;
      dropSavedSkills(catalog, namespace);
    }
  };

  return {
    async ensure(principal) {
      const namespaces = [`${principal.user}/Skill`, `${spaceOf(principal)}/Skill`];
      const pending = namespaces.map(touch).filter((p): p is Promise<void> => p !== null);
      if (pending.length === 0) return;
      await Promise.all(pending);
      trim(namespaces);
    },
    get namespaces() {
      return loaded.size;
    },
    get skills() {
      return total;
    },
  };
}
