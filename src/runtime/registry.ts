import * as z from 'zod/mini';
import { checkDescriptor, CapabilityDefinitionError, type CapabilityDescriptor } from './capability';

/** A capability as the outside sees it: serialisable, with JSON Schemas instead of zod. */
export interface CapabilityInfo {
  name: string;
  title: string;
  description: string;
  /** How users ask for it, in their words (offline matching, door docs). */
  examples?: readonly string[];
  kind: 'read' | 'mutate';
  annotations: CapabilityDescriptor['annotations'];
  actor?: CapabilityDescriptor['actor'];
  requires_user_confirmation?: boolean;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
}

/** The set of verbs a workspace offers, in a stable order (by name). */
export interface Registry {
  /** Adds a capability; a second one with the same name is refused. */
  register(descriptor: CapabilityDescriptor): void;
  get(name: string): CapabilityDescriptor | undefined;
  /** Every capability, sorted by name, so prompts and listings are byte-stable. */
  list(): readonly CapabilityDescriptor[];
  /** Serialisable descriptions, in the same order as `list()`. */
  describe(): readonly CapabilityInfo[];
}

/**
 * Creates a registry.
 * @example
 * const registry = createRegistry([add, slowReport]);
 * registry.get('math.add');
 */
export function createRegistry(descriptors: readonly CapabilityDescriptor[] = []): Registry {
  const byName = new Map<string, CapabilityDescriptor>();
  let sorted: CapabilityDescriptor[] | null = null;
  let described: CapabilityInfo[] | null = null;

  const registry: Registry = {
    register(descriptor) {
      checkDescriptor(descriptor);
      if (byName.has(descriptor.name)) {
        throw new CapabilityDefinitionError(
          `Capability "${descriptor.name}" is already registered; names must be unique.`,
        );
      }
      byName.set(descriptor.name, descriptor);
      sorted = null;
      described = null;
    },
    get: (name) => byName.get(name),
    list() {
      sorted ??= [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return sorted;
    },
    describe() {
      described ??= registry.list().map(describeCapability);
      return described;
    },
  };
  for (const descriptor of descriptors) registry.register(descriptor);
  return registry;
}

/** JSON Schema (draft 2020-12) for a zod schema (classic or mini), as tool listings expect it. */
export function toJsonSchema(schema: z.core.$ZodType): Record<string, unknown> {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
}

function describeCapability(d: CapabilityDescriptor): CapabilityInfo {
  const info: CapabilityInfo = {
    name: d.name,
    title: d.title,
    description: d.description,
    kind: d.kind,
    annotations: d.annotations,
    inputSchema: toJsonSchema(d.input),
  };
  if (d.examples?.length) info.examples = [...d.examples];
  if (d.actor) info.actor = d.actor;
  if (d.requires_user_confirmation) info.requires_user_confirmation = true;
  if (d.output) info.outputSchema = toJsonSchema(d.output);
  return info;
}
