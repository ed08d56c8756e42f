/** The ConfigMap kind. */
import { base64DecodedLength, utf8ByteLength } from "../../../util/index.ts";
import { type FieldErrorList, forbiddenField, invalid, tooLong } from "../../meta/field-errors.ts";
import { FieldPath } from "../../meta/field-path.ts";
import type { KubeObject } from "../../meta/types.ts";
import { allVerbs, type KindDefinition } from "../../scheme.ts";
import { semanticEqual } from "../../validation/equality.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../validation/meta.ts";
import { isConfigMapKey } from "../../validation/names.ts";
import { coreSchemaRoot } from "./kind-helpers.ts";

export interface ConfigMap extends KubeObject {
  immutable?: boolean;
  data?: Record<string, string>;
  /** Base64-encoded on the wire. */
  binaryData?: Record<string, string>;
}

/** The size limit of a ConfigMap's or Secret's data: 1 MiB. */
export const maxDataSize = 1024 * 1024;

/** Decoded byte length of a base64 string. */
export function base64Length(text: string): number {
  return base64DecodedLength(text);
}

/** `ValidateConfigMap`: keys, no key in both maps, total size ≤ 1 MiB. */
export function validateConfigMap(cm: ConfigMap): FieldErrorList {
  const errs = validateObjectMeta(cm.metadata, { namespaced: true }, FieldPath.of("metadata"));
  let size = 0;
  for (const [key, value] of Object.entries(cm.data ?? {})) {
    for (const msg of isConfigMapKey(key))
      errs.push(invalid(FieldPath.of("data").key(key), key, msg));
    size += utf8ByteLength(key) + utf8ByteLength(value);
  }
  for (const [key, value] of Object.entries(cm.binaryData ?? {})) {
    const p = FieldPath.of("binaryData").key(key);
    for (const msg of isConfigMapKey(key)) errs.push(invalid(p, key, msg));
    if (cm.data?.[key] !== undefined)
      errs.push(invalid(p, key, "duplicate of key present in data"));
    size += utf8ByteLength(key) + base64Length(value);
  }
  if (size > maxDataSize) errs.push(tooLong(FieldPath.of(""), maxDataSize));
  return errs;
}

/** Once `immutable` is true, it and the data may not change. */
export function validateImmutableData(
  obj: { immutable?: boolean; data?: unknown },
  old: { immutable?: boolean; data?: unknown },
  otherData: readonly string[],
): FieldErrorList {
  const errs: FieldErrorList = [];
  if (old.immutable !== true) return errs;
  const message = "field is immutable when `immutable` is set";
  if (obj.immutable !== true) errs.push(forbiddenField(FieldPath.of("immutable"), message));
  for (const field of ["data", ...otherData]) {
    const a = (obj as Record<string, unknown>)[field];
    const b = (old as Record<string, unknown>)[field];
    if (!semanticEqual(a, b)) errs.push(forbiddenField(FieldPath.of(field), message));
  }
  return errs;
}

/** `ValidateConfigMapUpdate`. */
export function validateConfigMapUpdate(cm: ConfigMap, old: ConfigMap): FieldErrorList {
  const errs = validateObjectMetaUpdate(cm.metadata, old.metadata, FieldPath.of("metadata"));
  errs.push(...validateImmutableData(cm, old, ["binaryData"]));
  errs.push(...validateConfigMap(cm).filter((e) => !e.field.startsWith("metadata")));
  return errs;
}

export const configMapKind: KindDefinition<ConfigMap> = {
  group: "",
  version: "v1",
  kind: "ConfigMap",
  listKind: "ConfigMapList",
  resource: "configmaps",
  singular: "configmap",
  namespaced: true,
  shortNames: ["cm"],
  categories: [],
  verbs: allVerbs,
  schema: coreSchemaRoot("ConfigMap"),
  tracksGeneration: false,
  subresources: { status: false },
  applyDefaults: () => {},
  validate: validateConfigMap,
  validateUpdate: validateConfigMapUpdate,
};
