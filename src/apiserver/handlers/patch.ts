import { badRequest, type KubeObject, notFound, unsupportedMediaType } from "../../api/index.ts";
import { isPlainObject, type JsonObject, rfc3339 } from "../../util/index.ts";
import { mediaTypeOf } from "../http/accept.ts";
import { parseJson, parseYamlBody, readBody } from "../http/body.ts";
import { parseGoBool } from "../http/request-info.ts";
import { writeJson } from "../http/responses.ts";
import { applyJsonPatch, applyMergePatch, applyStrategicMergePatch } from "../patch/index.ts";
import type { Store } from "../registry/generic/store.ts";
import { answerOf } from "../registry/generic/written-json.ts";
import { checkTypeMeta, fieldValidationOf, pruneOrReject } from "./decode.ts";
import {
  apiVersionOfStore,
  asObject,
  checkVerb,
  type HandlerDeps,
  type RequestScope,
} from "./scope.ts";
import { decodeTyped } from "./type-check.ts";
import { validateWriteOptions, writeContextOf } from "./write-context.ts";

const jsonPatch = "application/json-patch+json";
const mergePatch = "application/merge-patch+json";
const strategicPatch = "application/strategic-merge-patch+json";
const applyPatch = "application/apply-patch+yaml";

/** The patch types a resource accepts: no strategic merge for custom resources. */
export function acceptedPatchTypes(store: Store): string[] {
  return store.entry.strategy.customResource === true
    ? [jsonPatch, mergePatch, applyPatch]
    : [jsonPatch, mergePatch, strategicPatch, applyPatch];
}

/** PATCH of an object or its status: JSON, merge, strategic merge, or server-side apply. */
export async function handlePatch(
  deps: HandlerDeps,
  scope: RequestScope,
  subresource: string,
): Promise<void> {
  const { store, info, query } = scope;
  if (subresource === "") checkVerb(scope);
  const media = mediaTypeOf(scope.req.headers["content-type"]);
  const accepted = acceptedPatchTypes(store);
  if (!accepted.includes(media)) throw unsupportedMediaType(accepted);
  const body = await readBody(scope.req);
  validateWriteOptions(query, "PatchOptions", media);
  const context = writeContextOf(scope, subresource);
  const validation = fieldValidationOf(query);
  const definition = store.entry.definition;
  const typed = store.entry.strategy.customResource === true ? "metadata" : "object";

  if (media === applyPatch) {
    const force = parseGoBool(query.get("force")) === true;
    const applied = parseYamlBody(body);
    scope.audit?.logRequestPatch(applied);
    if (!isPlainObject(applied)) throw badRequest("the apply configuration must be an object");
    checkTypeMeta(definition, applied);
    decodeTyped(definition, structuredClone(applied), typed);
    pruneOrReject(definition, applied, validation, scope.warnings);
    const appliedName = (applied["metadata"] as { name?: string } | undefined)?.name;
    if (appliedName !== undefined && appliedName !== info.name) {
      throw badRequest(
        `the name of the object (${appliedName}) does not match the name on the URL (${info.name})`,
      );
    }
    const apply = (live: KubeObject | undefined): KubeObject => {
      const result = deps.fieldManager.apply({
        live: live as unknown as JsonObject | undefined,
        applied: applied as JsonObject,
        manager: context.fieldManager,
        apiVersion: apiVersionOfStore(store),
        force,
        time: rfc3339(deps.clock.now()),
        schema: definition.schema,
        ...(subresource === "" ? {} : { subresource }),
      });
      const obj = asObject(result.object as Record<string, unknown>);
      if (result.managedFields.length > 0) obj.metadata.managedFields = result.managedFields;
      else delete obj.metadata.managedFields;
      return obj;
    };
    const applyContext = { ...context, managedFieldsComputed: true };
    try {
      const updated = await store.update(
        info.namespace,
        info.name,
        (current) => apply(current),
        applyContext,
      );
      writeJson(scope.res, 200, answerOf(updated), { warnings: scope.warnings });
    } catch (error: unknown) {
      if (!(error instanceof Error && "code" in error && error.code === 404) || subresource !== "")
        throw error;
      const obj = apply(undefined);
      obj.metadata.name = info.name;
      const created = await store.create(info.namespace, obj, applyContext);
      writeJson(scope.res, 201, answerOf(created), { warnings: scope.warnings });
    }
    return;
  }

  const patch = parseJson(body);
  scope.audit?.logRequestPatch(patch);
  if (media !== jsonPatch && !isPlainObject(patch)) {
    throw badRequest("the patch must be a JSON object");
  }
  const updated = await store.update(
    info.namespace,
    info.name,
    (current) => {
      const doc = current as unknown as JsonObject;
      let next: JsonObject;
      switch (media) {
        case jsonPatch:
          next = applyJsonPatch(doc, patch);
          break;
        case mergePatch:
          next = applyMergePatch(doc, patch as JsonObject);
          break;
        default:
          next = applyStrategicMergePatch(doc, patch as JsonObject, definition.schema);
      }
      if (!isPlainObject(next)) throw badRequest("the patch result is not an object");
      checkTypeMeta(definition, next);
      decodeTyped(definition, next, typed);
      pruneOrReject(definition, next, validation, scope.warnings);
      const obj = asObject(next);
      if ((obj.metadata.name ?? "") !== info.name)
        throw notFound({ group: definition.group, resource: definition.resource }, info.name);
      return obj;
    },
    context,
    // Each patch kind applies the patch to a copy of its own.
    { readOnlyCurrent: true },
  );
  writeJson(scope.res, 200, answerOf(updated), { warnings: scope.warnings });
}
