/** The `storage.k8s.io/v1` KindDefinitions: StorageClass (cluster-scoped, `sc`). */
import { externalDefinitions } from "../../apps/v1/core-adapter.ts";
import type { SchemaRoot } from "../../schema/schema.ts";
import { allVerbs, type KindDefinition } from "../../scheme.ts";
import { storageName, storageV1Definitions } from "./schema.ts";
import { applyStorageClassDefaults, type StorageClass } from "./storage-class.ts";
import { validateStorageClass, validateStorageClassUpdate } from "./validation.ts";

function root(name: string): SchemaRoot {
  const definitions = { ...externalDefinitions(), ...storageV1Definitions };
  const schema = definitions[storageName(name)];
  if (schema === undefined) throw new RangeError(`Cannot find schema definition "${name}"`);
  return { schema, definitions };
}

export const storageClassKind: KindDefinition<StorageClass> = {
  group: "storage.k8s.io",
  version: "v1",
  kind: "StorageClass",
  listKind: "StorageClassList",
  resource: "storageclasses",
  singular: "storageclass",
  namespaced: false,
  shortNames: ["sc"],
  categories: [],
  verbs: allVerbs,
  schema: root("StorageClass"),
  tracksGeneration: false,
  subresources: { status: false },
  applyDefaults: applyStorageClassDefaults,
  validate: validateStorageClass,
  validateUpdate: validateStorageClassUpdate,
};

/** Every served `storage.k8s.io/v1` kind. */
export const storageV1Kinds = [storageClassKind] as const;
