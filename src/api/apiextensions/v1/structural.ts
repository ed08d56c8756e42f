/**
 * Structural-schema rules for CRD `openAPIV3Schema` (apiextensions' `ValidateStructural`), the
 * requirement every v1 CRD must meet: every field is typed outside of logical junctors, junctors
 * only restrict values, and metadata may only be restricted in `name`/`generateName`.
 */

import { errorMessage } from "../../../util/index.ts";
import {
  type FieldError,
  type FieldErrorList,
  fieldErrorString,
  forbiddenField,
  invalid,
  required,
} from "../../meta/field-errors.ts";
import { type FieldPath, fieldPath } from "../../meta/field-path.ts";
import type { JSONSchemaProps } from "./crd.ts";
import { schemaAt, sortedKeys, validateOpenApiSchema } from "./schema-checks.ts";

export { kindDefinitionForCrd } from "./custom-resource-kind.ts";

type Level = "root" | "item" | "field";

const junctors = ["allOf", "anyOf", "oneOf"] as const;

/**
 * Checks that a CRD schema is a valid structural schema. `path` is where the schema sits
 * (`spec.versions[0].schema.openAPIV3Schema` in a CRD); errors are upstream's, e.g.
 * `…properties[spec].type: Required value: must not be empty for specified object fields`.
 * Returns an empty list for a structural schema.
 */
export function isStructuralSchema(
  schema: JSONSchemaProps,
  path: FieldPath = fieldPath("openAPIV3Schema"),
): FieldErrorList {
  const errs = validateOpenApiSchema(schema, path);
  if (schema.nullable === true) {
    errs.push(forbiddenField(path.child("nullable"), "nullable cannot be true at the root"));
  }
  const structural = [...invariants(schema, "root", path), ...completeness(schema, path)];
  structural.sort(byMessage);
  errs.push(...structural);
  return errs;
}

function byMessage(a: FieldError, b: FieldError): number {
  const x = fieldErrorString(a);
  const y = fieldErrorString(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function isIntOrStringPair(list: unknown): boolean {
  if (!Array.isArray(list) || list.length !== 2) return false;
  const [a, b] = list.map(schemaAt);
  return (
    a !== undefined &&
    b !== undefined &&
    JSON.stringify(a) === JSON.stringify({ type: "integer" }) &&
    JSON.stringify(b) === JSON.stringify({ type: "string" })
  );
}

function invariants(s: JSONSchemaProps, level: Level, path: FieldPath): FieldErrorList {
  const errs: FieldErrorList = [];
  const type = s.type ?? "";
  const intOrString = s["x-kubernetes-int-or-string"] === true;
  const preserve = s["x-kubernetes-preserve-unknown-fields"] === true;
  const embedded = s["x-kubernetes-embedded-resource"] === true;
  const items = schemaAt(s.items);
  if (type === "array" && items === undefined)
    errs.push(required(path.child("items"), "must be specified"));
  if (items !== undefined) errs.push(...invariants(items, "item", path.child("items")));
  const properties = s.properties ?? {};
  for (const key of sortedKeys(properties)) {
    const sub = schemaAt(properties[key]);
    if (sub !== undefined)
      errs.push(...invariants(sub, "field", path.child("properties").key(key)));
  }
  if (s.additionalProperties !== undefined) {
    if (level === "root") {
      errs.push(forbiddenField(path.child("additionalProperties"), "must not be used at the root"));
    }
    const sub = schemaAt(s.additionalProperties);
    if (sub !== undefined)
      errs.push(...invariants(sub, "field", path.child("additionalProperties")));
  }
  if (intOrString && preserve) {
    errs.push(
      invalid(
        path.child("x-kubernetes-preserve-unknown-fields"),
        true,
        "must be false if x-kubernetes-int-or-string is true",
      ),
    );
  }
  if (intOrString && embedded) {
    errs.push(
      invalid(
        path.child("x-kubernetes-embedded-resource"),
        true,
        "must be false if x-kubernetes-int-or-string is true",
      ),
    );
  }
  const skipAnyOf = isIntOrStringPair(s.anyOf);
  const skipFirstAllOfAnyOf = isIntOrStringPair(schemaAt(s.allOf?.[0])?.anyOf);
  errs.push(...valueValidation(s, skipAnyOf, skipFirstAllOfAnyOf, level, path));
  if (embedded && type !== "object") {
    const msg = "must be object if x-kubernetes-embedded-resource is true";
    errs.push(
      type === "" ? required(path.child("type"), msg) : invalid(path.child("type"), type, msg),
    );
  } else if (type === "" && !intOrString && !preserve) {
    const detail =
      level === "root"
        ? "must not be empty at the root"
        : level === "item"
          ? "must not be empty for specified array items"
          : "must not be empty for specified object fields";
    errs.push(required(path.child("type"), detail));
  }
  if (embedded && s.additionalProperties !== undefined) {
    errs.push(
      forbiddenField(
        path.child("additionalProperties"),
        "must not be used if x-kubernetes-embedded-resource is set",
      ),
    );
  }
  if (level === "root" && type !== "" && type !== "object") {
    errs.push(invalid(path.child("type"), type, "must be object at the root"));
  }
  const checkMetadata = level === "root" || embedded;
  const props = path.child("properties");
  for (const key of ["kind", "apiVersion"] as const) {
    const sub = schemaAt(properties[key]);
    if (sub !== undefined && checkMetadata && sub.type !== "string") {
      errs.push(invalid(props.key(key).child("type"), sub.type ?? "", "must be string"));
    }
  }
  const metadata = schemaAt(properties["metadata"]);
  if (metadata !== undefined && checkMetadata && metadata.type !== "object") {
    errs.push(invalid(props.key("metadata").child("type"), metadata.type ?? "", "must be object"));
  }
  if (metadata !== undefined && level === "root" && !isNameOnlyMetadata(metadata)) {
    errs.push(
      forbiddenField(
        props.key("metadata"),
        "must not specify anything other than name and generateName, but metadata is implicitly specified",
      ),
    );
  }
  if (embedded && !preserve && Object.keys(properties).length === 0) {
    errs.push(
      required(
        path.child("properties"),
        "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
      ),
    );
  }
  return errs;
}

/** Root `metadata` may be `type: object` with at most `name`/`generateName` restrictions. */
function isNameOnlyMetadata(metadata: JSONSchemaProps): boolean {
  const rest: Record<string, unknown> = { ...metadata };
  delete rest["type"];
  delete rest["default"];
  const properties = Object.keys(metadata.properties ?? {});
  if (properties.every((k) => k === "name" || k === "generateName")) delete rest["properties"];
  return Object.keys(rest).length === 0;
}

function valueValidation(
  s: JSONSchemaProps,
  skipAnyOf: boolean,
  skipFirstAllOfAnyOf: boolean,
  level: Level,
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  if (!skipAnyOf) {
    (s.anyOf ?? []).forEach((v, i) => {
      errs.push(...nested(v, false, level, path.child("anyOf").index(i)));
    });
  }
  (s.allOf ?? []).forEach((v, i) => {
    errs.push(...nested(v, skipFirstAllOfAnyOf && i === 0, level, path.child("allOf").index(i)));
  });
  (s.oneOf ?? []).forEach((v, i) => {
    errs.push(...nested(v, false, level, path.child("oneOf").index(i)));
  });
  const not = schemaAt(s.not);
  if (not !== undefined) errs.push(...nested(not, false, level, path.child("not")));
  if (s.pattern !== undefined) {
    try {
      new RegExp(s.pattern, "u");
    } catch (error: unknown) {
      const reason = errorMessage(error);
      errs.push(
        invalid(
          path.child("pattern"),
          s.pattern,
          `must be a valid regular expression, but isn't: ${reason}`,
        ),
      );
    }
  }
  return errs;
}

/** A schema under a junctor may only restrict values: no types, defaults or extensions. */
function nested(v: unknown, skipAnyOf: boolean, level: Level, path: FieldPath): FieldErrorList {
  const s = schemaAt(v);
  if (s === undefined) return [];
  const errs = valueValidation(s, skipAnyOf, false, level, path);
  const items = schemaAt(s.items);
  if (items !== undefined) errs.push(...nested(items, false, level, path.child("items")));
  const properties = s.properties ?? {};
  for (const key of sortedKeys(properties)) {
    errs.push(...nested(properties[key], false, "field", path.child("properties").key(key)));
  }
  const forbid = (key: string, detail: string): void => {
    errs.push(forbiddenField(path.child(key), detail));
  };
  if ((s.type ?? "") !== "") forbid("type", "must be empty to be structural");
  if (s.additionalProperties !== undefined)
    forbid("additionalProperties", "must be undefined to be structural");
  if (s.default !== undefined) forbid("default", "must be undefined to be structural");
  if ((s["title"] ?? "") !== "") forbid("title", "must be empty to be structural");
  if ((s.description ?? "") !== "") forbid("description", "must be empty to be structural");
  if (s.nullable === true) forbid("nullable", "must be false to be structural");
  for (const ext of [
    "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-embedded-resource",
    "x-kubernetes-int-or-string",
  ] as const) {
    if (s[ext] === true) forbid(ext, "must be false to be structural");
  }
  if ((s["x-kubernetes-list-map-keys"] ?? []).length > 0) {
    forbid("x-kubernetes-list-map-keys", "must be empty to be structural");
  }
  if (s["x-kubernetes-list-type"] !== undefined)
    forbid("x-kubernetes-list-type", "must be undefined to be structural");
  if (properties["metadata"] !== undefined) {
    errs.push(
      forbiddenField(
        path.child("properties").key("metadata"),
        "must not be specified in a nested context",
      ),
    );
  }
  return errs;
}

/** Every field a junctor mentions must also be specified in the structural part. */
function completeness(s: JSONSchemaProps, path: FieldPath): FieldErrorList {
  const errs = junctorCompleteness(s, s, path, path);
  const items = schemaAt(s.items);
  if (items !== undefined) errs.push(...completeness(items, path.child("items")));
  const properties = s.properties ?? {};
  for (const key of sortedKeys(properties)) {
    const sub = schemaAt(properties[key]);
    if (sub !== undefined) errs.push(...completeness(sub, path.child("properties").key(key)));
  }
  const additional = schemaAt(s.additionalProperties);
  if (additional !== undefined)
    errs.push(...completeness(additional, path.child("additionalProperties")));
  return errs;
}

function junctorCompleteness(
  v: JSONSchemaProps,
  s: JSONSchemaProps | undefined,
  sPath: FieldPath,
  vPath: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  const not = schemaAt(v.not);
  if (not !== undefined) errs.push(...nestedCompleteness(not, s, sPath, vPath.child("not")));
  for (const junctor of junctors) {
    (v[junctor] ?? []).forEach((sub, i) => {
      const schema = schemaAt(sub);
      if (schema !== undefined)
        errs.push(...nestedCompleteness(schema, s, sPath, vPath.child(junctor).index(i)));
    });
  }
  return errs;
}

function nestedCompleteness(
  v: JSONSchemaProps,
  s: JSONSchemaProps | undefined,
  sPath: FieldPath,
  vPath: FieldPath,
): FieldErrorList {
  if (s === undefined) return [required(sPath, `because it is defined in ${vPath.toString()}`)];
  const errs = junctorCompleteness(v, s, sPath, vPath);
  const vItems = schemaAt(v.items);
  if (vItems !== undefined) {
    errs.push(
      ...nestedCompleteness(vItems, schemaAt(s.items), sPath.child("items"), vPath.child("items")),
    );
  }
  const properties = v.properties ?? {};
  for (const key of sortedKeys(properties)) {
    const vProp = schemaAt(properties[key]);
    if (vProp === undefined) continue;
    const sProp = schemaAt(s.properties?.[key]);
    const sp = sPath.child("properties").key(key);
    const vp = vPath.child("properties").key(key);
    if (sProp === undefined) {
      errs.push(required(sp, `because it is defined in ${vp.toString()}`));
    } else {
      errs.push(...nestedCompleteness(vProp, sProp, sp, vp));
    }
  }
  return errs;
}
