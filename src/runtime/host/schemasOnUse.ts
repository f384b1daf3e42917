import type { CapabilityDescriptor } from '../capability';
import { loadOnce } from '../loadOnce';
import { createRegistryWith, describeCapability, type CapabilityInfo, type JsonSchemaOf, type Registry } from '../capabilityRegistry';

/**
 * The JSON Schemas of a page's own workspace (`createLocalWorkspace`), converted on first use.
 * An empty chat reads none (the model's tool list, the offline model's matching and a card's
 * field titles all come once something runs), and zod's JSON Schema code is about 7 KB gzip.
 * So the page's registry describes its capabilities at once and converts each schema when it is
 * first read; the converter (`toJsonSchema`) comes with the turn parts, which the host loads
 * beside it on the first send, decision or call (`./hostContext`), and before a stored
 * history with calls is handed to the page (`./followers`). A read before then throws, in
 * words, saying what to wait for; until then the key is not enumerable, so whatever walks the
 * manifest's keys (a clone, JSON.stringify, a devtool, Storybook's args) passes it by.
 */

let converter: JsonSchemaOf | undefined;
/** Descriptions made before the converter came: converted (and enumerable) the moment it does. */
let unsettled: CapabilityInfo[] = [];

/** What a schema read before the converter loaded throws. */
export const SCHEMAS_NOT_LOADED =
  "A capability's JSON Schema was read before the page loaded zod's JSON Schema converter (it loads with the first turn, call or thread history): await workspace.loadSchemas() first.";

/** True once the converter is in. */
export function jsonSchemasLoaded(): boolean {
  return converter !== undefined;
}

/** Loads the converter once; a failed load (a chunk the network lost) is tried again on the next call. */
const jsonSchemaCode = loadOnce(
  () =>
    import('./turnParts').then((parts) => {
      converter = parts.toJsonSchema;
      // Reading a schema converts it and keeps it as a plain, enumerable value.
      for (const info of unsettled.splice(0)) void [info.inputSchema, info.outputSchema];
    }),
  'its JSON Schema code',
);
export function loadJsonSchemas(): Promise<void> {
  return converter ? Promise.resolve() : jsonSchemaCode.load();
}

const onUse: JsonSchemaOf = (schema) => {
  if (!converter) throw new Error(SCHEMAS_NOT_LOADED);
  return converter(schema);
};

/** A registry like `createRegistry`'s whose descriptions convert their schemas when first read. */
export function createRegistryOnUse(descriptors: readonly CapabilityDescriptor[] = []): Registry {
  return createRegistryWith(descriptors, (d) => {
    if (converter) return describeCapability(d, converter);
    const info = describeCapability(d, onUse, true);
    unsettled.push(info);
    return info;
  });
}
