import type * as z from 'zod/mini';
import { checkDescriptor, CapabilityDefinitionError, type CapabilityDescriptor } from './capability';

// The registry without a JSON Schema converter: `./registry` gives it zod's (`createRegistry`); a
// page's own workspace gives it one that loads on first use (`./host/schemasOnUse`), so a page that
// shows an empty chat carries none of zod's JSON Schema code.

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

/** A zod schema (classic or mini) as JSON Schema. */
export type JsonSchemaOf = (schema: z.core.$ZodType) => Record<string, unknown>;

/** A registry whose `describe()` makes each capability's description with `describeOne`. */
export function createRegistryWith(descriptors: readonly CapabilityDescriptor[], describeOne: (d: CapabilityDescriptor) => CapabilityInfo): Registry {
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
      described ??= registry.list().map(describeOne);
      return described;
    },
  };
  for (const descriptor of descriptors) registry.register(descriptor);
  return registry;
}

/**
 * A capability's description with its schemas converted by `jsonSchemaOf`: at once, or, with
 * `onRead`, when `inputSchema` (`outputSchema`) is first read, then kept as a plain value (until
 * then the key is not enumerable). The keys come in the same order either way, so the JSON of
 * both is the same once converted.
 */
export function describeCapability(d: CapabilityDescriptor, jsonSchemaOf: JsonSchemaOf, onRead = false): CapabilityInfo {
  const info = {
    name: d.name,
    title: d.title,
    description: d.description,
    kind: d.kind,
    annotations: d.annotations,
  } as CapabilityInfo;
  setSchema(info, 'inputSchema', d.input, jsonSchemaOf, onRead);
  if (d.examples?.length) info.examples = [...d.examples];
  if (d.actor) info.actor = d.actor;
  if (d.requires_user_confirmation) info.requires_user_confirmation = true;
  if (d.output) setSchema(info, 'outputSchema', d.output, jsonSchemaOf, onRead);
  return info;
}

function setSchema(info: CapabilityInfo, key: 'inputSchema' | 'outputSchema', schema: z.core.$ZodType, jsonSchemaOf: JsonSchemaOf, onRead: boolean): void {
  if (!onRead) {
    info[key] = jsonSchemaOf(schema);
    return;
  }
  // Redefining a key keeps its place among the keys: the JSON keeps the eager order.
  const keep = (value: Record<string, unknown>) => Object.defineProperty(info, key, { value, enumerable: true, writable: true, configurable: true });
  // Not enumerable until converted: whatever walks the object's keys before then (a clone,
  // JSON.stringify, a devtool, Storybook's args) passes it by instead of failing on it.
  Object.defineProperty(info, key, {
    enumerable: false,
    configurable: true,
    get() {
      const value = jsonSchemaOf(schema);
      keep(value);
      return value;
    },
    set: keep,
  });
}
