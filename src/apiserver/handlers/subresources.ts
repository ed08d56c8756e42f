import {
  badRequest,
  conflict,
  type KubeObject,
  methodNotAllowed,
  notFound,
} from "../../api/index.ts";
import { rfc3339 } from "../../util/index.ts";
import { writeJson } from "../http/responses.ts";
import { decodeObject } from "./decode.ts";
import type { HandlerDeps, RequestScope } from "./scope.ts";
import { readJsonObject } from "./write.ts";
import { deleteOptionsOf, writeContextOf } from "./write-context.ts";

/** POST pods/NAME/binding: assigns an unbound pod to a node, as the scheduler's bind does. */
export async function handleBinding(deps: HandlerDeps, scope: RequestScope): Promise<void> {
  const { store, info } = scope;
  if (scope.req.method !== "POST") throw methodNotAllowed();
  const binding = await readJsonObject(deps, scope);
  const target = binding["target"] as { name?: unknown; kind?: unknown } | undefined;
  const node = typeof target?.name === "string" ? target.name : "";
  if (node === "") throw badRequest("Binding is invalid: target.name: Required value");
  const gr = { group: "", resource: "pods" };
  await store.update(
    info.namespace,
    info.name,
    (pod) => {
      if (pod.metadata.deletionTimestamp !== undefined) {
        throw conflict({ group: "", resource: "pods/binding" }, info.name, "pod is being deleted");
      }
      const spec = pod["spec"] as { nodeName?: string };
      if ((spec.nodeName ?? "") !== "") {
        throw conflict(
          gr,
          info.name,
          `pod ${info.name} is already assigned to node "${spec.nodeName}"`,
        );
      }
      spec.nodeName = node;
      setPodCondition(pod, "PodScheduled", rfc3339(deps.clock.now()));
      return pod;
    },
    writeContextOf(scope, "binding"),
  );
  writeJson(scope.res, 201, {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Success",
    code: 201,
  });
}

function setPodCondition(pod: KubeObject, type: string, now: string): void {
  const status = (pod["status"] ?? {}) as {
    conditions?: {
      type: string;
      status: string;
      lastTransitionTime?: string | null;
      lastProbeTime?: string | null;
    }[];
  };
  pod["status"] = status;
  const conditions = status.conditions ?? [];
  const existing = conditions.find((c) => c.type === type);
  if (existing === undefined) {
    conditions.push({ type, status: "True", lastProbeTime: null, lastTransitionTime: now });
  } else if (existing.status !== "True") {
    existing.status = "True";
    existing.lastTransitionTime = now;
  }
  status.conditions = conditions;
}

/**
 * POST pods/NAME/eviction with a policy/v1 (or v1beta1) Eviction. Budget checks belong to the
 * disruption issue; here the eviction deletes the pod with the body's DeleteOptions.
 */
export async function handleEviction(deps: HandlerDeps, scope: RequestScope): Promise<void> {
  const { store, info } = scope;
  if (scope.req.method !== "POST") throw methodNotAllowed();
  const eviction = await readJsonObject(deps, scope);
  const kind = eviction["kind"];
  const apiVersion = eviction["apiVersion"];
  if (kind !== undefined && kind !== "Eviction") {
    throw badRequest(
      `the kind in the data (${String(kind)}) does not match the expected kind (Eviction)`,
    );
  }
  if (apiVersion !== undefined && apiVersion !== "policy/v1" && apiVersion !== "policy/v1beta1") {
    throw badRequest(
      `unsupported Eviction apiVersion ${JSON.stringify(apiVersion)}: use policy/v1`,
    );
  }
  const metadata = (eviction["metadata"] ?? {}) as { name?: string; namespace?: string };
  if (metadata.name !== undefined && metadata.name !== info.name) {
    throw badRequest(`name in URL does not match name in Eviction object`);
  }
  if (
    metadata.namespace !== undefined &&
    metadata.namespace !== "" &&
    metadata.namespace !== info.namespace
  ) {
    throw badRequest(
      "the namespace of the provided object does not match the namespace sent on the request",
    );
  }
  const rawOptions = eviction["deleteOptions"];
  const options = deleteOptionsOf(
    new URLSearchParams(),
    (rawOptions ?? undefined) as Record<string, unknown> | undefined,
  );
  const dryRun = (options.dryRun?.length ?? 0) > 0 || scope.query.getAll("dryRun").length > 0;
  await store.get(info.namespace, info.name);
  await store.delete(info.namespace, info.name, options, writeContextOf(scope, "eviction", dryRun));
  writeJson(scope.res, 201, {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Success",
    code: 201,
  });
}

/** PUT namespaces/NAME/finalize: replaces `spec.finalizers` only. */
export async function handleFinalize(deps: HandlerDeps, scope: RequestScope): Promise<void> {
  const { store, info } = scope;
  if (scope.req.method !== "PUT") throw methodNotAllowed();
  const body = await decodeObject(deps, scope);
  const finalizers = ((body["spec"] ?? {}) as { finalizers?: string[] }).finalizers;
  const updated = await store.update(
    "",
    info.name,
    (ns) => {
      const spec = (ns["spec"] ?? {}) as { finalizers?: string[] };
      if (finalizers === undefined || finalizers.length === 0) delete spec.finalizers;
      else spec.finalizers = finalizers;
      ns["spec"] = spec;
      return ns;
    },
    writeContextOf(scope, "finalize"),
  );
  writeJson(scope.res, 200, updated);
}

/** The 404 for a subresource a resource does not have. */
export function unknownSubresource(scope: RequestScope): never {
  throw notFound(
    {
      group: scope.store.entry.definition.group,
      resource: `${scope.info.resource}/${scope.info.subresource}`,
    },
    scope.info.name,
  );
}
