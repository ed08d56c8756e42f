import {
  anyValue,
  atomicList,
  bool,
  int32,
  mapList,
  obj,
  type Schema,
  type SchemaRoot,
  setList,
  str,
  stringMap,
} from "../../api/index.ts";
import { objectMetaSchema } from "./types.ts";

// Schemas shaped like the built-in ones, for tests only; the real tables live in api/.

/** A ConfigMap: granular `data`, no metadata schema (the fallback ObjectMeta applies). */
export const configMapSchema: SchemaRoot = {
  schema: obj({ apiVersion: str(), kind: str(), data: stringMap(), immutable: bool() }),
  definitions: {},
};

const container: Schema = obj({
  name: str(),
  image: str(),
  args: atomicList(str()),
  ports: mapList(
    obj({ containerPort: int32(), protocol: str(undefined, { default: "TCP" }) }),
    "containerPort",
    { mapKeys: ["containerPort", "protocol"] },
  ),
});

/** A Deployment-like kind with list-maps, sets, atomic lists, an atomic selector and status. */
export const deploymentSchema: SchemaRoot = {
  schema: obj({
    apiVersion: str(),
    kind: str(),
    spec: obj({
      replicas: int32(),
      selector: { ...obj({ matchLabels: stringMap() }), "x-kubernetes-map-type": "atomic" },
      template: obj({
        metadata: objectMetaSchema,
        spec: obj({ containers: mapList(container, "name"), finalizers: setList(str()) }),
      }),
    }),
    status: obj({ replicas: int32() }),
  }),
  definitions: {},
};

/** A custom resource whose `spec.config` is free-form. */
export const widgetSchema: SchemaRoot = {
  schema: obj({
    apiVersion: str(),
    kind: str(),
    spec: obj({ size: int32(), config: anyValue() }),
  }),
  definitions: {},
};
