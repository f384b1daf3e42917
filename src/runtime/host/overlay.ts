import { CapabilityDefinitionError } from '../capability';
import type { Registry } from '../registry';

const cache = new WeakMap<Registry, WeakMap<Registry, Registry>>();

/**
 * The shared registry with one principal's own capabilities over it (a
 * user's own MCP servers): `get` finds either, `list` and `describe` merge
 * both by name. A name in both is the shared one (a user cannot shadow the
 * workspace's verbs). Read-only: registering goes to the registry it came
 * from. The same pair gives the same object back, so per-turn lookups cost
 * nothing once made.
 * @example
 * const mine = overlayRegistry(host.registry, aliceTools);
 */
export function overlayRegistry(base: Registry, overlay: Registry): Registry {
  let byBase = cache.get(base);
  if (!byBase) cache.set(base, (byBase = new WeakMap()));
  const hit = byBase.get(overlay);
  if (hit) return hit;
  const own = () => overlay.list().filter((d) => !base.get(d.name));
  let listed: ReturnType<Registry['list']> | null = null;
  let described: ReturnType<Registry['describe']> | null = null;
  let baseList: unknown = null;
  const fresh = () => {
    // The shared registry may grow (a host registering late): rebuild when its list changed.
    if (baseList !== base.list()) {
      baseList = base.list();
      listed = null;
      described = null;
    }
  };
  const merged: Registry = {
    register() {
      throw new CapabilityDefinitionError('A principal\'s registry is read-only: register on the host\'s registry, or on the overlay itself.');
    },
    get: (name) => base.get(name) ?? overlay.get(name),
    list() {
      fresh();
      listed ??= [...base.list(), ...own()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return listed;
    },
    describe() {
      fresh();
      if (!described) {
        const names = new Set(own().map((d) => d.name));
        described = [...base.describe(), ...overlay.describe().filter((c) => names.has(c.name))].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      }
      return described;
    },
  };
  byBase.set(overlay, merged);
  return merged;
}
