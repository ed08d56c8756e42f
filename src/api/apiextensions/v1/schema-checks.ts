/**
 * The generic checks every CRD `openAPIV3Schema` node gets before the structural rules
 * (`ValidateCustomResourceDefinitionOpenAPISchema` and the OpenAPI v3 standard validator), with
 * upstream's messages.
 */

import { isPlainObject } from "../../../util/index.ts";
import {
  type FieldErrorList,
  forbiddenField,
  invalid,
  notSupported,
  required,
} from "../../meta/field-errors.ts";
import type { FieldPath } from "../../meta/field-path.ts";
import type { JSONSchemaProps } from "./crd.ts";

const openapiV3Types = ["array", "boolean", "integer", "number", "object", "string"];
const metaFields = new Set(["metadata", "kind", "apiVersion"]);
const unsupported = ["id", "additionalItems", "patternProperties", "definitions", "dependencies"];

interface Context {
  readonly isRoot: boolean;
  readonly insideResourceMeta: boolean;
  /** Why defaults are forbidden here (`in top-level metadata`), or undefined when allowed. */
  readonly forbiddenDefaults?: string;
}

/** A child schema, or undefined when the value is absent or not a schema object. */
export function schemaAt(value: unknown): JSONSchemaProps | undefined {
  return isPlainObject(value) ? (value as JSONSchemaProps) : undefined;
}

/** Property names in a stable order. */
export function sortedKeys(record: Readonly<Record<string, unknown>> | undefined): string[] {
  return Object.keys(record ?? {}).sort();
}

export function validateOpenApiSchema(schema: JSONSchemaProps, path: FieldPath): FieldErrorList {
  return check(schema, path, { isRoot: true, insideResourceMeta: false });
}

function check(s: JSONSchemaProps, path: FieldPath, ctx: Context): FieldErrorList {
  const errs: FieldErrorList = [];
  const type: unknown = s.type;
  if (type === "null") {
    errs.push(
      forbiddenField(
        path.child("type"),
        "type cannot be set to null, use nullable as an alternative",
      ),
    );
  } else if (type !== undefined && type !== "" && !openapiV3Types.includes(String(type))) {
    errs.push(notSupported(path.child("type"), type, openapiV3Types));
  }
  if (s.default !== undefined && ctx.forbiddenDefaults !== undefined) {
    errs.push(forbiddenField(path.child("default"), `must not be set ${ctx.forbiddenDefaults}`));
  }
  for (const key of unsupported) {
    if (s[key] !== undefined) errs.push(forbiddenField(path.child(key), `${key} is not supported`));
  }
  if (s.$ref !== undefined) errs.push(forbiddenField(path.child("$ref"), "$ref is not supported"));
  if (Array.isArray(s.items)) {
    errs.push(
      forbiddenField(path.child("items"), "items must be a schema object and not an array"),
    );
  }
  if (ctx.insideResourceMeta && s["x-kubernetes-embedded-resource"] === true) {
    errs.push(
      forbiddenField(
        path.child("x-kubernetes-embedded-resource"),
        "must not be used inside of resource meta",
      ),
    );
  }
  if (s.uniqueItems === true) {
    errs.push(
      forbiddenField(
        path.child("uniqueItems"),
        "uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
      ),
    );
  }
  const additional = s.additionalProperties;
  const properties = s.properties ?? {};
  if (additional !== undefined) {
    if (Object.keys(properties).length > 0 && (additional === false || isPlainObject(additional))) {
      errs.push(
        forbiddenField(
          path.child("additionalProperties"),
          "additionalProperties and properties are mutual exclusive",
        ),
      );
    }
    const sub = schemaAt(additional);
    if (sub !== undefined) {
      const inner: Context = ctx.insideResourceMeta
        ? {
            isRoot: false,
            insideResourceMeta: true,
            forbiddenDefaults: "inside additionalProperties applying to object metadata",
          }
        : { ...ctx, isRoot: false };
      errs.push(...check(sub, path.child("additionalProperties"), inner));
    }
  }
  for (const key of sortedKeys(properties)) {
    const sub = schemaAt(properties[key]);
    if (sub === undefined) continue;
    let inner: Context = { ...ctx, isRoot: false };
    if ((ctx.isRoot || s["x-kubernetes-embedded-resource"] === true) && metaFields.has(key)) {
      inner = { isRoot: false, insideResourceMeta: true };
      if (ctx.isRoot) inner = { ...inner, forbiddenDefaults: `in top-level ${key}` };
      else if (ctx.forbiddenDefaults !== undefined)
        inner = { ...inner, forbiddenDefaults: ctx.forbiddenDefaults };
    }
    errs.push(...check(sub, path.child("properties").key(key), inner));
  }
  const nested: Context = { ...ctx, isRoot: false };
  const not = schemaAt(s.not);
  if (not !== undefined) errs.push(...check(not, path.child("not"), nested));
  for (const junctor of ["allOf", "oneOf", "anyOf"] as const) {
    (s[junctor] ?? []).forEach((sub, i) => {
      const schema = schemaAt(sub);
      if (schema !== undefined) errs.push(...check(schema, path.child(junctor).index(i), nested));
    });
  }
  const items = schemaAt(s.items);
  if (items !== undefined) errs.push(...check(items, path.child("items"), nested));
  errs.push(...checkExtensions(s, path));
  return errs;
}

function checkExtensions(s: JSONSchemaProps, path: FieldPath): FieldErrorList {
  const errs: FieldErrorList = [];
  const type = s.type ?? "";
  if (s["x-kubernetes-preserve-unknown-fields"] === false) {
    errs.push(
      invalid(
        path.child("x-kubernetes-preserve-unknown-fields"),
        false,
        "must be true or undefined",
      ),
    );
  }
  const mapType: unknown = s["x-kubernetes-map-type"];
  if (mapType !== undefined) {
    if (type === "") {
      errs.push(
        required(path.child("type"), "must be object if x-kubernetes-map-type is specified"),
      );
    } else if (type !== "object") {
      errs.push(
        invalid(path.child("type"), type, "must be object if x-kubernetes-map-type is specified"),
      );
    }
    if (mapType !== "atomic" && mapType !== "granular") {
      errs.push(notSupported(path.child("x-kubernetes-map-type"), mapType, ["atomic", "granular"]));
    }
  }
  const listType: unknown = s["x-kubernetes-list-type"];
  if (listType !== undefined) {
    if (type === "") {
      errs.push(
        required(path.child("type"), "must be array if x-kubernetes-list-type is specified"),
      );
    } else if (type !== "array") {
      errs.push(
        invalid(path.child("type"), type, "must be array if x-kubernetes-list-type is specified"),
      );
    }
    if (listType !== "atomic" && listType !== "set" && listType !== "map") {
      errs.push(
        notSupported(path.child("x-kubernetes-list-type"), listType, ["atomic", "set", "map"]),
      );
    }
  }
  const keys = s["x-kubernetes-list-map-keys"] ?? [];
  if (keys.length > 0) {
    if (listType === undefined) {
      errs.push(
        required(
          path.child("x-kubernetes-list-type"),
          "must be map if x-kubernetes-list-map-keys is non-empty",
        ),
      );
    } else if (listType !== "map") {
      errs.push(
        invalid(
          path.child("x-kubernetes-list-type"),
          listType,
          "must be map if x-kubernetes-list-map-keys is non-empty",
        ),
      );
    }
  }
  if (listType === "map") {
    if (keys.length === 0) {
      errs.push(
        required(
          path.child("x-kubernetes-list-map-keys"),
          "must not be empty if x-kubernetes-list-type is map",
        ),
      );
    }
    const items = schemaAt(s.items);
    if (items === undefined) {
      errs.push(
        required(path.child("items"), "must have a schema if x-kubernetes-list-type is map"),
      );
    } else if (items.type !== "object") {
      errs.push(
        invalid(
          path.child("items", "type"),
          items.type ?? "",
          "must be object if parent array's x-kubernetes-list-type is map",
        ),
      );
    } else {
      const seen = new Set<string>();
      for (const key of keys) {
        const prop = schemaAt(items.properties?.[key]);
        if (prop === undefined) {
          errs.push(
            invalid(
              path.child("x-kubernetes-list-map-keys"),
              keys,
              "entries must all be names of item properties",
            ),
          );
        } else if (prop.type === "array" || prop.type === "object") {
          errs.push(
            invalid(
              path.child("items", "properties").key(key).child("type"),
              items.type,
              "must be a scalar type if parent array's x-kubernetes-list-type is map",
            ),
          );
        }
        if (seen.has(key)) {
          errs.push(
            invalid(
              path.child("x-kubernetes-list-map-keys"),
              keys,
              "must not contain duplicate entries",
            ),
          );
        }
        seen.add(key);
      }
    }
  }
  return errs;
}
