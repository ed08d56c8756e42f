/**
 * The `Eviction` body POSTed to `pods/<name>/eviction` (policy/v1, and the same shape under
 * policy/v1beta1), with the decoding and checks the eviction route needs.
 */

import { isPlainObject } from "../../../util/index.ts";
import { badRequest } from "../../errors.ts";
import { type FieldErrorList, invalid, notSupported } from "../../meta/field-errors.ts";
import { fieldPath } from "../../meta/field-path.ts";
import type { DeleteOptions, ObjectMeta } from "../../meta/types.ts";

export interface Eviction {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  deleteOptions?: DeleteOptions;
}

/** The group/versions that serve the eviction subresource. */
export const evictionApiVersions: readonly string[] = ["policy/v1", "policy/v1beta1"];

/**
 * Decodes an eviction request body for the pod `namespace/name`. Throws ApiError 400 for a body
 * that is not an Eviction, a name that differs from the URL's (`name in URL does not match name
 * in Eviction object`) or a namespace that differs from the request's. Returns the Eviction with
 * `metadata.namespace` filled in.
 */
export function decodeEviction(body: unknown, namespace: string, name: string): Eviction {
  if (!isPlainObject(body)) {
    throw badRequest(
      'Eviction in version "v1" cannot be handled as a Eviction: the request body must be a JSON object',
    );
  }
  const apiVersion = body["apiVersion"];
  const kind = body["kind"];
  if (
    apiVersion !== undefined &&
    !(typeof apiVersion === "string" && evictionApiVersions.includes(apiVersion))
  ) {
    throw badRequest(
      `Eviction in version "v1" cannot be handled as a Eviction: apiVersion ${JSON.stringify(apiVersion)} is not one of "policy/v1", "policy/v1beta1"`,
    );
  }
  if (kind !== undefined && kind !== "Eviction") {
    throw badRequest(
      `Eviction in version "v1" cannot be handled as a Eviction: kind ${JSON.stringify(kind)} is not "Eviction"`,
    );
  }
  const metadata = body["metadata"];
  if (metadata !== undefined && !isPlainObject(metadata)) {
    throw badRequest(
      'Eviction in version "v1" cannot be handled as a Eviction: metadata must be an object',
    );
  }
  const meta: ObjectMeta = { ...((metadata ?? {}) as ObjectMeta) };
  if ((meta.name ?? "") !== name) {
    throw badRequest("name in URL does not match name in Eviction object");
  }
  if (meta.namespace !== undefined && meta.namespace !== "" && meta.namespace !== namespace) {
    throw badRequest(
      "the namespace of the provided object does not match the namespace sent on the request",
    );
  }
  meta.namespace = namespace;
  const deleteOptions = body["deleteOptions"];
  if (deleteOptions !== undefined && deleteOptions !== null && !isPlainObject(deleteOptions)) {
    throw badRequest(
      'Eviction in version "v1" cannot be handled as a Eviction: deleteOptions must be an object',
    );
  }
  const eviction: Eviction = { metadata: meta };
  if (typeof apiVersion === "string") eviction.apiVersion = apiVersion;
  if (typeof kind === "string") eviction.kind = kind;
  if (isPlainObject(deleteOptions)) eviction.deleteOptions = deleteOptions as DeleteOptions;
  return eviction;
}

/** `ValidateDeleteOptions` applied to `deleteOptions`; the eviction route answers 422 with these. */
export function validateEviction(eviction: Eviction): FieldErrorList {
  const options = eviction.deleteOptions;
  if (options === undefined) return [];
  const errs: FieldErrorList = [];
  const p = fieldPath("deleteOptions");
  if (options.orphanDependents !== undefined && options.propagationPolicy !== undefined) {
    errs.push(
      invalid(
        p.child("propagationPolicy"),
        options.propagationPolicy,
        "orphanDependents and deletionPropagation cannot be both set",
      ),
    );
  }
  const policy: unknown = options.propagationPolicy;
  if (
    policy !== undefined &&
    policy !== "Orphan" &&
    policy !== "Background" &&
    policy !== "Foreground"
  ) {
    errs.push(
      notSupported(p.child("propagationPolicy"), policy, [
        "Foreground",
        "Background",
        "Orphan",
        "nil",
      ]),
    );
  }
  (options.dryRun ?? []).forEach((value) => {
    if (value !== "All") errs.push(notSupported(p.child("dryRun"), value, ["All"]));
  });
  return errs;
}
