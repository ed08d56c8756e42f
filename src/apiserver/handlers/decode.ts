import {
  badRequest,
  type KindDefinition,
  type KubeObject,
  pruneUnknownFields,
} from "../../api/index.ts";
import { isPlainObject, type JsonObject } from "../../util/index.ts";
import { checkObjectMediaType, decodeObjectBody, readBody } from "../http/body.ts";
import { asObject, type HandlerDeps, type RequestScope } from "./scope.ts";
import { decodeTyped } from "./type-check.ts";
import { validateWriteOptions, type WriteOptionsKind } from "./write-context.ts";

export type FieldValidation = "Strict" | "Warn" | "Ignore";

/** `fieldValidation`: Strict, Warn (the default since 1.27) or Ignore. */
export function fieldValidationOf(query: URLSearchParams): FieldValidation {
  const value = query.get("fieldValidation") ?? "";
  switch (value) {
    case "":
    case "Warn":
      return "Warn";
    case "Strict":
    case "Ignore":
      return value;
    default:
      throw badRequest(
        `fieldValidation parameter unsupported: ${value}. Supported values are "Strict", "Warn", "Ignore"`,
      );
  }
}

/**
 * Drops fields the kind's schema does not declare. Strict turns them into upstream's 400
 * (`<Kind> in version "v1" cannot be handled as a <Kind>: strict decoding error: unknown field
 * "spec.x"`); Warn adds one warning each; Ignore drops them silently.
 */
export function pruneOrReject(
  definition: KindDefinition,
  obj: Record<string, unknown>,
  validation: FieldValidation,
  warnings: string[],
): void {
  const { unknownFields } = pruneUnknownFields(
    obj,
    definition.schema.schema,
    definition.schema.definitions,
  );
  if (unknownFields.length === 0 || validation === "Ignore") return;
  const texts = unknownFields.map((f) => `unknown field ${JSON.stringify(f)}`);
  if (validation === "Warn") {
    warnings.push(...texts);
    return;
  }
  throw badRequest(
    `${definition.kind} in version ${JSON.stringify(definition.version)} cannot be handled as a ${definition.kind}: strict decoding error: ${texts.join(", ")}`,
  );
}

/**
 * Reads and decodes the body of a create or update into an object of the store's kind, in
 * upstream's order: Content-Type (415), body size (413), query options (400/422), then the body.
 */
export async function decodeObject(
  deps: HandlerDeps,
  scope: RequestScope,
  options: WriteOptionsKind,
): Promise<KubeObject> {
  const contentType = scope.req.headers["content-type"];
  checkObjectMediaType(contentType);
  const body = await readBody(scope.req);
  validateWriteOptions(scope.query, options);
  if (body.length === 0) throw badRequest("the request body is empty: send the object to write");
  const raw = decodeObjectBody(body, contentType, deps.protobuf);
  const definition = scope.store.entry.definition;
  checkTypeMeta(definition, raw);
  decodeTyped(
    definition,
    raw,
    scope.store.entry.strategy.customResource === true ? "metadata" : "object",
  );
  const obj = asObject(raw);
  pruneOrReject(definition, obj, fieldValidationOf(scope.query), scope.warnings);
  scope.audit?.logRequestObject(obj);
  return obj;
}

/** Rejects a body whose apiVersion or kind names another kind, as the decoder does. */
export function checkTypeMeta(
  definition: Pick<KindDefinition, "group" | "version" | "kind">,
  raw: Record<string, unknown>,
): void {
  const expectedVersion =
    definition.group === "" ? definition.version : `${definition.group}/${definition.version}`;
  const apiVersion = raw["apiVersion"];
  const kind = raw["kind"];
  if (apiVersion !== undefined && apiVersion !== "" && apiVersion !== expectedVersion) {
    throw badRequest(
      `the API version in the data (${String(apiVersion)}) does not match the expected API version (${expectedVersion})`,
    );
  }
  if (kind !== undefined && kind !== "" && kind !== definition.kind) {
    throw badRequest(
      `the kind in the data (${String(kind)}) does not match the expected kind (${definition.kind})`,
    );
  }
}

/** Parses a JSON body that must be an object (Binding, Eviction). */
export async function readJsonObject(deps: HandlerDeps, scope: RequestScope): Promise<JsonObject> {
  const body = await readBody(scope.req);
  const value =
    body.length === 0
      ? {}
      : decodeObjectBody(body, scope.req.headers["content-type"], deps.protobuf);
  if (!isPlainObject(value)) throw badRequest("the request body must be a JSON object");
  scope.audit?.logRequestObject(value);
  return value as JsonObject;
}
