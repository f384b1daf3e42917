import * as z from 'zod/mini';
import type { CapabilityDescriptor } from './capability';
import { createRegistryWith, describeCapability, type Registry } from './capabilityRegistry';

export type { CapabilityInfo, Registry } from './capabilityRegistry';

/**
 * Creates a registry.
 * @example
 * const registry = createRegistry([add, slowReport]);
 * registry.get('math.add');
 */
export function createRegistry(descriptors: readonly CapabilityDescriptor[] = []): Registry {
  return createRegistryWith(descriptors, (d) => describeCapability(d, toJsonSchema));
}

/** JSON Schema (draft 2020-12) for a zod schema (classic or mini), as tool listings expect it. */
export function toJsonSchema(schema: z.core.$ZodType): Record<string, unknown> {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
}
