import {
  badRequest,
  conflict,
  fieldPath,
  invalid,
  invalidObject,
  type KubeObject,
  type LabelSelector,
  methodNotAllowed,
  objectModifiedMessage,
  type ScaleSubresource,
  selectorFromLabelSelector,
  selectorFromSet,
  selectorToString,
} from "../../api/index.ts";
import { isPlainObject, type JsonObject } from "../../util/index.ts";
import { mediaTypeOf } from "../http/accept.ts";
import { parseJson, readBody } from "../http/body.ts";
import { writeJson } from "../http/responses.ts";
import { applyJsonPatch, applyMergePatch } from "../patch/index.ts";
import type { HandlerDeps, RequestScope } from "./scope.ts";
import { writeContextOf } from "./write-context.ts";

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

/** GET, PUT and PATCH of `<resource>/scale`. */
export async function handleScale(_deps: HandlerDeps, scope: RequestScope): Promise<void> {
  const { store, info } = scope;
  const definition = store.entry.definition;
  const scale = definition.subresources.scale;
  if (scale === undefined) throw methodNotAllowed();
  const builtInKind = store.entry.strategy.customResource === true ? undefined : definition.kind;
  if (info.verb === "get") {
    writeJson(
      scope.res,
      200,
      scaleOf(await store.get(info.namespace, info.name), scale, builtInKind),
    );
    return;
  }
  if (info.verb !== "update" && info.verb !== "patch") throw methodNotAllowed();
  const body = await readBody(scope.req);
  const media = mediaTypeOf(scope.req.headers["content-type"]);
  const input = parseJson(body);
  const updated = await store.update(
    info.namespace,
    info.name,
    (current) => {
      const before = scaleOf(current, scale, builtInKind);
      let next: unknown;
      if (info.verb === "update") next = input;
      else if (media === "application/json-patch+json") next = applyJsonPatch(before, input);
      else next = applyMergePatch(before, input as JsonObject);
      if (!isPlainObject(next)) throw badRequest("the Scale must be an object");
      const rv = (next["metadata"] as { resourceVersion?: string } | undefined)?.resourceVersion;
      if (rv !== undefined && rv !== "" && rv !== current.metadata.resourceVersion) {
        throw conflict(
          { group: definition.group, resource: definition.resource },
          info.name,
          objectModifiedMessage,
        );
      }
      const replicas = (next["spec"] as { replicas?: unknown } | undefined)?.replicas;
      if (
        replicas !== undefined &&
        replicas !== null &&
        (typeof replicas !== "number" || !Number.isInteger(replicas))
      ) {
        throw badRequest(
          `Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal ${typeof replicas} into Go struct field ScaleSpec.spec.replicas of type int32`,
        );
      }
      if (typeof replicas === "number" && replicas < 0) {
        throw invalidObject({ group: "autoscaling", kind: "Scale" }, info.name, [
          invalid(fieldPath("spec", "replicas"), replicas, "must be greater than or equal to 0"),
        ]);
      }
      writePath(current, scale.specReplicasPath, typeof replicas === "number" ? replicas : 0);
      return current;
    },
    writeContextOf(scope, "scale"),
  );
  writeJson(scope.res, 200, scaleOf(updated, scale, builtInKind), {
    warnings: scope.warnings,
  });
}
