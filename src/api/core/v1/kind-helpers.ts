import { canonicalQuantity } from "../../resource/quantity.ts";
import type { SchemaRoot } from "../../schema/schema.ts";
import { coreV1Definitions } from "./definitions.ts";
import { coreName } from "./schema-pod-template.ts";

/** The schema root of a core/v1 kind, resolved against `coreV1Definitions`. */
export function coreSchemaRoot(kind: string): SchemaRoot {
  const schema = coreV1Definitions[coreName(kind)];
  if (schema === undefined)
    throw new RangeError(`Cannot find the schema of core/v1 kind "${kind}"`);
  return { schema, definitions: coreV1Definitions };
}

/** Canonicalizes the quantities of a resource map in place; unparsable values are left as sent. */
export function canonicalizeQuantities(list: Record<string, string> | undefined): void {
  for (const [name, value] of Object.entries(list ?? {})) {
    try {
      (list as Record<string, string>)[name] = canonicalQuantity(value);
    } catch {
      // Left for validation to report.
    }
  }
}
