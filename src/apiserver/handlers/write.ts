import { badRequest, type KubeObject, pathNotFound } from "../../api/index.ts";
import { checkObjectMediaType, decodeObjectBody, readBody } from "../http/body.ts";
import { writeJson } from "../http/responses.ts";
import { segmentOf } from "../registry/generic/strategy.ts";
import { answerOf } from "../registry/generic/written-json.ts";
import { decodeObject } from "./decode.ts";
import { buildPredicate } from "./predicate.ts";
import { apiVersionOfStore, checkVerb, type HandlerDeps, type RequestScope } from "./scope.ts";
import { handleBindingsCreate } from "./subresources.ts";
import { deleteOptionsOf, writeContextOf } from "./write-context.ts";

/** POST to a collection. */
export async function handleCreate(deps: HandlerDeps, scope: RequestScope): Promise<void> {
  const { store, info } = scope;
  const definition = store.entry.definition;
  checkVerb(scope);
  if (definition.namespaced && info.namespace === "") throw pathNotFound();
  if (definition.group === "" && definition.resource === "bindings") {
    return handleBindingsCreate(deps, scope);
  }
  const obj = await decodeObject(deps, scope, "CreateOptions");
  checkNamespace(obj, info.namespace, definition.namespaced);
  const created = await store.create(info.namespace, obj, writeContextOf(scope, ""));
  writeJson(scope.res, 201, answerOf(created), { warnings: scope.warnings });
}

/** PUT of an object (or its status). */
export async function handleUpdate(
  deps: HandlerDeps,
  scope: RequestScope,
  subresource: string,
): Promise<void> {
  const { store, info } = scope;
  if (subresource === "") checkVerb(scope);
  const obj = await decodeObject(deps, scope, "UpdateOptions");
  checkNamespace(obj, info.namespace, store.entry.definition.namespaced);
  const bodyName = obj.metadata.name ?? "";
  if (bodyName !== info.name) {
    throw badRequest(
      `the name of the object (${bodyName}) does not match the name on the URL (${info.name})`,
    );
  }
  const updated = await store.update(
    info.namespace,
    info.name,
    () => obj,
    writeContextOf(scope, subresource),
    { readOnlyCurrent: true },
  );
  writeJson(scope.res, 200, answerOf(updated), { warnings: scope.warnings });
}

/** DELETE of one object. */
export async function handleDelete(deps: HandlerDeps, scope: RequestScope): Promise<void> {
  const { store, info } = scope;
  checkVerb(scope);
  const options = await readDeleteOptions(deps, scope);
  const context = writeContextOf(scope, "", (options.dryRun?.length ?? 0) > 0);
  const result = await store.delete(info.namespace, info.name, options, context);
  if (!result.deleted || store.entry.strategy.returnDeletedObject === true) {
    const code = !result.deleted && options.orphanDependents === false ? 202 : 200;
    writeJson(scope.res, code, result.object, { warnings: scope.warnings });
    return;
  }
  writeJson(
    scope.res,
    200,
    {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Success",
      details: {
        name: info.name,
        ...(store.entry.definition.group === "" ? {} : { group: store.entry.definition.group }),
        kind: store.entry.definition.resource,
        uid: result.object.metadata.uid ?? "",
      },
    },
    { warnings: scope.warnings },
  );
}

/** DELETE of a collection: deletes every selected object and returns them as a list. */
export async function handleDeleteCollection(
  deps: HandlerDeps,
  scope: RequestScope,
): Promise<void> {
  const { store, info, query } = scope;
  const definition = store.entry.definition;
  checkVerb(scope);
  const options = await readDeleteOptions(deps, scope);
  const context = writeContextOf(scope, "", (options.dryRun?.length ?? 0) > 0);
  const predicate = buildPredicate(store, query);
  await deps.cache.waitUntilFresh();
  const cache = deps.cache.resource(segmentOf(definition));
  const targets: { namespace: string; name: string }[] = [];
  for (const object of cache.list(definition.namespaced ? info.namespace : "")) {
    if (predicate(object.object as unknown as KubeObject))
      targets.push({ namespace: object.namespace, name: object.name });
  }
  const items: KubeObject[] = [];
  for (const target of targets) {
    try {
      items.push((await store.delete(target.namespace, target.name, options, context)).object);
    } catch (error: unknown) {
      // An object deleted concurrently is simply no longer there to delete.
      if (!(error instanceof Error && "code" in error && error.code === 404)) throw error;
    }
  }
  writeJson(
    scope.res,
    200,
    {
      kind: definition.listKind,
      apiVersion: apiVersionOfStore(store),
      metadata: { resourceVersion: String(deps.cache.revision) },
      items,
    },
    { warnings: scope.warnings },
  );
}

/** DeleteOptions from a body (415 for a Content-Type no body can have) or from the query. */
async function readDeleteOptions(deps: HandlerDeps, scope: RequestScope) {
  const body = await readBody(scope.req);
  let raw: Record<string, unknown> | undefined;
  if (body.length > 0) {
    const contentType = scope.req.headers["content-type"];
    checkObjectMediaType(contentType);
    raw = decodeObjectBody(body, contentType, deps.protobuf);
  }
  const options = deleteOptionsOf(scope.query, raw);
  scope.audit?.logRequestObject({
    kind: "DeleteOptions",
    apiVersion: "meta.k8s.io/v1",
    ...options,
  });
  return options;
}

/** The body's namespace must be empty or match the URL's. */
export function checkNamespace(obj: KubeObject, namespace: string, namespaced: boolean): void {
  const bodyNamespace = obj.metadata.namespace ?? "";
  if (namespaced && bodyNamespace !== "" && bodyNamespace !== namespace) {
    throw badRequest(
      "the namespace of the provided object does not match the namespace sent on the request",
    );
  }
}
