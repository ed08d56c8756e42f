import {
  badRequest,
  conflict,
  internalError,
  invalidObject,
  type KubeObject,
  type LabelSelector,
  methodNotAllowed,
  type ScaleSubresource,
  selectorFromLabelSelector,
  selectorFromSet,
  selectorToString,
  unsupportedMediaType,
} from "../../api/index.ts";
import { isPlainObject, type JsonObject, rfc3339 } from "../../util/index.ts";
import type { Path } from "../fieldmanager/index.ts";
import { mediaTypeOf } from "../http/accept.ts";
import {
  checkObjectMediaType,
  decodeObjectBody,
  parseJson,
  parseYamlBody,
  readBody,
} from "../http/body.ts";
import { parseGoBool } from "../http/request-info.ts";
import { writeJson } from "../http/responses.ts";
import { checkTypeMeta, fieldValidationOf, pruneOrReject } from "./decode.ts";
import { parseResourceVersion } from "./list-options.ts";
import { acceptedPatchTypes } from "./patch.ts";
import { scaleKind, scaleReplicasOf, validateScale } from "./scale-kind.ts";
import {
  replicasPathOf,
  scaleApiVersion,
  toParentManagedFields,
  toScaleManagedFields,
} from "./scale-managed-fields.ts";
import { patchScale, type ScalePatchType } from "./scale-patch.ts";
import { apiVersionOfStore, asObject, type HandlerDeps, type RequestScope } from "./scope.ts";
import { decodeTyped } from "./type-check.ts";
import { checkNamespace } from "./write.ts";
import { validateWriteOptions, writeContextOf } from "./write-context.ts";

/** Reads a value at a simple JSON path such as `.spec.replicas`. */
export function readPath(obj: unknown, path: string): unknown {
  let current: unknown = obj;
  for (const part of path.split(".").filter((p) => p !== "")) {
    if (!isPlainObject(current)) return undefined;
    current = current[part];
  }
  return current;
}

/** Writes a value at a simple JSON path, creating objects on the way. */
export function writePath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split(".").filter((p) => p !== "");
  let current: Record<string, unknown> = obj;
  for (const part of parts.slice(0, -1)) {
    const next = current[part];
    if (!isPlainObject(next)) current[part] = {};
    current = current[part] as Record<string, unknown>;
  }
  const last = parts[parts.length - 1];
  if (last !== undefined) current[last] = value;
}

/**
 * The `status.selector` of a built-in's Scale: the label selector as a string, as upstream's
 * `metav1.LabelSelectorAsSelector(spec.selector).String()` (ReplicationControllers have a plain
 * map: `labels.SelectorFromSet(...).String()`).
 */
export function builtInScaleSelector(obj: KubeObject, kind: string): string {
  const selector = readPath(obj, ".spec.selector");
  if (kind === "ReplicationController") {
    return selectorToString(
      selectorFromSet(isPlainObject(selector) ? (selector as Record<string, string>) : undefined),
    );
  }
  return selectorToString(
    selectorFromLabelSelector(isPlainObject(selector) ? (selector as LabelSelector) : undefined),
  );
}

/**
 * The autoscaling/v1 Scale of an object, as upstream builds it: replicas from the spec and status
 * paths, the selector of a built-in from `spec.selector`, of a custom resource from its
 * `labelSelectorPath` (a string). `spec.replicas` is omitted when 0 (`omitempty`).
 */
export function scaleOf(
  obj: KubeObject,
  scale: ScaleSubresource,
  builtInKind?: string,
): JsonObject {
  const specReplicas = readPath(obj, scale.specReplicasPath);
  const statusReplicas = readPath(obj, scale.statusReplicasPath);
  let selector = "";
  if (builtInKind !== undefined) {
    selector = builtInScaleSelector(obj, builtInKind);
  } else if (scale.labelSelectorPath !== undefined) {
    const value = readPath(obj, scale.labelSelectorPath);
    selector = typeof value === "string" ? value : "";
  }
  const metadata: Record<string, unknown> = { name: obj.metadata.name ?? "" };
  if (obj.metadata.namespace !== undefined) metadata["namespace"] = obj.metadata.namespace;
  metadata["uid"] = obj.metadata.uid ?? "";
  metadata["resourceVersion"] = obj.metadata.resourceVersion ?? "";
  metadata["creationTimestamp"] = obj.metadata.creationTimestamp ?? null;
  const status: Record<string, unknown> = {
    replicas: typeof statusReplicas === "number" ? statusReplicas : 0,
  };
  if (selector !== "") status["selector"] = selector;
  return {
    kind: "Scale",
    apiVersion: "autoscaling/v1",
    metadata,
    spec: typeof specReplicas === "number" && specReplicas !== 0 ? { replicas: specReplicas } : {},
    status,
  } as JsonObject;
}

/** What the handlers need to know about one resource's scale subresource. */
interface ScaleTarget {
  readonly scale: ScaleSubresource;
  /** The parent's kind for a built-in; undefined for a custom resource. */
  readonly builtInKind: string | undefined;
  readonly group: string;
  readonly resource: string;
  /** The parent's replicas field (`.spec.replicas`, a CRD's `specReplicasPath`). */
  readonly replicasPath: Path;
  /** The parent's `apiVersion` as served here (`apps/v1`). */
  readonly apiVersion: string;
}

/**
 * Upstream's stand-in for the replicas of a custom resource that has none (the smallest int32):
 * a write through the Scale that leaves it so is refused.
 */
const missingReplicas = -2147483648;

const patchTypeOf: Readonly<Record<string, ScalePatchType>> = {
  "application/json-patch+json": "json",
  "application/merge-patch+json": "merge",
  "application/strategic-merge-patch+json": "strategic",
};
const applyPatchType = "application/apply-patch+yaml";

function hasSpecReplicas(obj: KubeObject, target: ScaleTarget): boolean {
  return typeof readPath(obj, target.scale.specReplicasPath) === "number";
}

/**
 * The Scale a write starts from, as upstream's `UpdatedObject` builds it: the GET answer, with the
 * parent's owners of the replicas field as its managedFields and, for a custom resource without
 * its replicas field, the stand-in value.
 */
function currentScale(obj: KubeObject, target: ScaleTarget): JsonObject {
  const scale = scaleOf(obj, target.scale, target.builtInKind);
  if (target.builtInKind === undefined && !hasSpecReplicas(obj, target)) {
    scale["spec"] = { replicas: missingReplicas };
  }
  const managedFields = toScaleManagedFields(obj.metadata.managedFields, target.replicasPath);
  if (managedFields.length > 0) {
    (scale["metadata"] as JsonObject)["managedFields"] = managedFields as unknown as JsonObject[];
  }
  return scale;
}

/** `checkName`: the decoded Scale must name the object of the URL. */
function checkName(scale: KubeObject, name: string): void {
  const bodyName = scale.metadata.name ?? "";
  if (bodyName !== name) {
    throw badRequest(
      `the name of the object (${bodyName}) does not match the name on the URL (${name})`,
    );
  }
}

/** The storage precondition a PUT's `metadata.uid` sets: 409 when the object has another uid. */
function checkUid(scale: KubeObject, current: KubeObject, gr: { group: string; resource: string }) {
  const uid = scale.metadata.uid ?? "";
  if (uid !== "" && uid !== current.metadata.uid) {
    throw conflict(
      gr,
      current.metadata.name ?? "",
      `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${current.metadata.uid ?? ""}`,
    );
  }
}

/**
 * Moves a decoded Scale onto the parent (`scaleUpdatedObjectInfo.UpdatedObject`): a built-in's
 * Scale must pass `ValidateScale` (422) and, on a patch, carry the parent's uid if any (409 on
 * `<resource>/scale`); a custom resource's must have replicas (400). Then the replicas and the
 * resourceVersion precondition go to the parent. Mutates and returns `current`.
 */
function writeScale(
  current: KubeObject,
  scale: KubeObject,
  target: ScaleTarget,
  patch: boolean,
): KubeObject {
  const replicas = scaleReplicasOf(scale);
  if (target.builtInKind === undefined) {
    if (replicas === missingReplicas) {
      throw badRequest(
        `the spec replicas field ${JSON.stringify(target.scale.specReplicasPath)} cannot be empty`,
      );
    }
  } else {
    const errors = validateScale(scale);
    if (errors.length > 0) {
      throw invalidObject(
        { group: "autoscaling", kind: "Scale" },
        current.metadata.name ?? "",
        errors,
      );
    }
    if (patch) {
      checkUid(scale, current, { group: target.group, resource: `${target.resource}/scale` });
    }
  }
  writePath(current, target.scale.specReplicasPath, replicas);
  const rv = scale.metadata.resourceVersion ?? "";
  // The store answers 409 when this is not the parent's current resourceVersion.
  if (rv !== "") current.metadata.resourceVersion = rv;
  return current;
}

/** GET, PUT and PATCH of `<resource>/scale`: upstream's ScaleREST of each scalable resource. */
export async function handleScale(deps: HandlerDeps, scope: RequestScope): Promise<void> {
  const { store, info } = scope;
  const definition = store.entry.definition;
  const scale = definition.subresources.scale;
  if (scale === undefined) throw methodNotAllowed();
  const target: ScaleTarget = {
    scale,
    builtInKind: store.entry.strategy.customResource === true ? undefined : definition.kind,
    group: definition.group,
    resource: definition.resource,
    replicasPath: replicasPathOf(scale.specReplicasPath),
    apiVersion: apiVersionOfStore(store),
  };
  switch (info.verb) {
    case "get":
      return getScale(scope, target);
    case "update":
      return updateScale(deps, scope, target);
    case "patch":
      return patchScaleRequest(deps, scope, target);
    default:
      throw methodNotAllowed();
  }
}

async function getScale(scope: RequestScope, target: ScaleTarget): Promise<void> {
  const { store, info } = scope;
  parseResourceVersion(scope.query.get("resourceVersion"));
  const obj = await store.get(info.namespace, info.name);
  if (target.builtInKind === undefined && !hasSpecReplicas(obj, target)) {
    throw internalError(
      `the spec replicas field ${JSON.stringify(target.scale.specReplicasPath)} does not exist`,
    );
  }
  writeJson(scope.res, 200, scaleOf(obj, target.scale, target.builtInKind));
}

/** PUT: decoded exactly as the main update handler decodes its kind, then written as a Scale. */
async function updateScale(
  deps: HandlerDeps,
  scope: RequestScope,
  target: ScaleTarget,
): Promise<void> {
  const { store, info } = scope;
  const contentType = scope.req.headers["content-type"];
  checkObjectMediaType(contentType);
  const body = await readBody(scope.req);
  validateWriteOptions(scope.query, "UpdateOptions");
  if (body.length === 0) throw badRequest("the request body is empty: send the object to write");
  const raw = decodeObjectBody(body, contentType, deps.protobuf);
  checkTypeMeta(scaleKind, raw);
  decodeTyped(scaleKind, raw);
  const requested = asObject(raw);
  pruneOrReject(scaleKind, requested, fieldValidationOf(scope.query), scope.warnings);
  checkNamespace(requested, info.namespace, true);
  if ((requested.metadata.namespace ?? "") === "") requested.metadata.namespace = info.namespace;
  checkName(requested, info.name);
  const updated = await store.update(
    info.namespace,
    info.name,
    (current) => {
      checkUid(requested, current, { group: target.group, resource: target.resource });
      return writeScale(current, requested, target, false);
    },
    writeContextOf(scope, "scale"),
  );
  writeJson(scope.res, 200, scaleOf(updated, target.scale, target.builtInKind), {
    warnings: scope.warnings,
  });
}

/** PATCH: the patch types and options of the main patch handler, applied to the Scale. */
async function patchScaleRequest(
  deps: HandlerDeps,
  scope: RequestScope,
  target: ScaleTarget,
): Promise<void> {
  const { store, info, query } = scope;
  const media = mediaTypeOf(scope.req.headers["content-type"]);
  const accepted = acceptedPatchTypes(store);
  if (!accepted.includes(media)) throw unsupportedMediaType(accepted);
  const body = await readBody(scope.req);
  validateWriteOptions(query, "PatchOptions", media);
  const context = writeContextOf(scope, "scale");
  const validation = fieldValidationOf(query);
  let updated: KubeObject;
  if (media === applyPatchType) {
    const force = parseGoBool(query.get("force")) === true;
    const applied = parseYamlBody(body);
    if (!isPlainObject(applied)) throw badRequest("the apply configuration must be an object");
    checkTypeMeta(scaleKind, applied);
    decodeTyped(scaleKind, structuredClone(applied));
    pruneOrReject(scaleKind, applied, validation, scope.warnings);
    const appliedName = (applied["metadata"] as { name?: string } | undefined)?.name;
    if (appliedName !== undefined)
      checkName(asObject({ metadata: { name: appliedName } }), info.name);
    updated = await store.update(
      info.namespace,
      info.name,
      (current) => {
        const result = deps.fieldManager.apply({
          live: currentScale(current, target),
          applied: applied as JsonObject,
          manager: context.fieldManager,
          apiVersion: scaleApiVersion,
          force,
          time: rfc3339(deps.clock.now()),
          schema: scaleKind.schema,
          subresource: "scale",
        });
        const next = asObject(result.object as Record<string, unknown>);
        checkNamespace(next, info.namespace, true);
        checkName(next, info.name);
        const entries = toParentManagedFields(
          current.metadata.managedFields,
          result.managedFields,
          target.replicasPath,
          target.apiVersion,
        );
        const written = writeScale(current, next, target, true);
        if (entries.length > 0) written.metadata.managedFields = entries;
        else delete written.metadata.managedFields;
        return written;
      },
      { ...context, managedFieldsComputed: true },
    );
  } else {
    const patch = parseJson(body);
    const patchType = patchTypeOf[media] ?? "merge";
    updated = await store.update(
      info.namespace,
      info.name,
      (current) => {
        const next = asObject(
          patchScale({
            before: currentScale(current, target),
            patch,
            patchType,
            validation,
            warnings: scope.warnings,
          }),
        );
        checkNamespace(next, info.namespace, true);
        checkName(next, info.name);
        return writeScale(current, next, target, true);
      },
      context,
    );
  }
  writeJson(scope.res, 200, scaleOf(updated, target.scale, target.builtInKind), {
    warnings: scope.warnings,
  });
}
