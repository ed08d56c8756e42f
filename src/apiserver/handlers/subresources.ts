import {
  type Binding,
  badRequest,
  bindingKind,
  conflict,
  decodeEviction,
  fieldErrorString,
  type KubeObject,
  methodNotAllowed,
  pathNotFound,
  validateBinding,
} from "../../api/index.ts";
import { rfc3339 } from "../../util/index.ts";
import { writeJson } from "../http/responses.ts";
import { evictPod, mergeDryRun, newEvictionDeps } from "../registry/eviction/index.ts";
import type { Store } from "../registry/generic/store.ts";
import { checkTypeMeta, decodeObject, readJsonObject } from "./decode.ts";
import { asObject, type HandlerDeps, type RequestScope } from "./scope.ts";
import { decodeTyped } from "./type-check.ts";
import { deleteOptionsOf, validateWriteOptions, writeContextOf } from "./write-context.ts";

/** POST pods/NAME/binding: assigns an unbound pod to a node, as the scheduler's bind does. */
export async function handleBinding(deps: HandlerDeps, scope: RequestScope): Promise<void> {
  if (scope.req.method !== "POST") throw methodNotAllowed();
  const binding = await readBinding(deps, scope);
  const bodyName = binding.metadata.name ?? "";
  if (bodyName !== "" && bodyName !== scope.info.name) {
    throw badRequest("name in URL does not match name in Binding object");
  }
  await bindPod(deps, scope, scope.store, scope.info.name, binding);
}

/**
 * POST namespaces/NS/bindings: the legacy form of `pods/NAME/binding`, naming the pod in the
 * Binding's `metadata.name`. Nothing is stored under `bindings`.
 */
export async function handleBindingsCreate(deps: HandlerDeps, scope: RequestScope): Promise<void> {
  const pods = deps.registry.lookup("", "v1", "pods");
  if (pods === undefined) throw pathNotFound();
  const binding = await readBinding(deps, scope);
  const name = binding.metadata.name ?? "";
  if (name === "") {
    throw badRequest("name in URL does not match name in Binding object");
  }
  await bindPod(deps, scope, pods, name, binding);
}

/** A Binding body: decoded with the kind's types, then `ValidatePodBinding`. */
async function readBinding(deps: HandlerDeps, scope: RequestScope): Promise<Binding> {
  const raw = await readJsonObject(deps, scope);
  validateWriteOptions(scope.query, "CreateOptions");
  checkTypeMeta(bindingKind, raw);
  decodeTyped(bindingKind, raw);
  const binding = asObject(raw) as Binding;
  const errors = validateBinding(binding);
  if (errors.length > 0) throw badRequest(`Binding is invalid: ${errors.map(fieldErrorString)}`);
  return binding;
}

async function bindPod(
  deps: HandlerDeps,
  scope: RequestScope,
  pods: Store,
  name: string,
  binding: Binding,
): Promise<void> {
  const node = binding.target.name ?? "";
  const gr = { group: "", resource: "pods" };
  await pods.update(
    scope.info.namespace,
    name,
    (pod) => {
      if (pod.metadata.deletionTimestamp !== undefined) {
        throw conflict({ group: "", resource: "pods/binding" }, name, "pod is being deleted");
      }
      const spec = pod["spec"] as { nodeName?: string };
      if ((spec.nodeName ?? "") !== "") {
        throw conflict(gr, name, `pod ${name} is already assigned to node "${spec.nodeName}"`);
      }
      spec.nodeName = node;
      // Upstream's setPodNodeAndMetadata copies the Binding's annotations onto the pod.
      const annotations = binding.metadata.annotations;
      if (annotations !== undefined && Object.keys(annotations).length > 0) {
        pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), ...annotations };
      }
      setPodCondition(pod, "PodScheduled", rfc3339(deps.clock.now()));
      return pod;
    },
    // Upstream's BindingREST updates the pod in storage directly: the field manager sees only
    // the Binding, so the pod's managedFields stay as they were.
    { ...writeContextOf(scope, "binding"), managedFieldsComputed: true },
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
 * POST pods/NAME/eviction with a policy/v1 (or v1beta1) Eviction: the budget decision, the
 * DisruptionTarget condition and the delete live in registry/eviction.
 */
export async function handleEviction(deps: HandlerDeps, scope: RequestScope): Promise<void> {
  const { store, info } = scope;
  if (scope.req.method !== "POST") throw methodNotAllowed();
  const raw = await readJsonObject(deps, scope);
  validateWriteOptions(scope.query, "CreateOptions");
  const eviction = decodeEviction(raw, info.namespace, info.name);
  const options = mergeDryRun(
    eviction.deleteOptions === undefined
      ? undefined
      : deleteOptionsOf(
          new URLSearchParams(),
          eviction.deleteOptions as Record<string, unknown> | undefined,
        ),
    scope.query.getAll("dryRun"),
  );
  const evictionDeps = newEvictionDeps({
    registry: deps.registry,
    cache: deps.cache,
    root: deps.registryRoot,
    clock: deps.clock,
    pods: store,
    metrics: deps.evictionMetrics,
  });
  const context = writeContextOf(scope, "eviction", (options.dryRun?.length ?? 0) > 0);
  const status = await evictPod(evictionDeps, {
    namespace: info.namespace,
    name: info.name,
    options,
    context,
  });
  writeJson(scope.res, status.code, status);
}

/** PUT namespaces/NAME/finalize: replaces `spec.finalizers` only. */
export async function handleFinalize(deps: HandlerDeps, scope: RequestScope): Promise<void> {
  const { store, info } = scope;
  if (scope.req.method !== "PUT") throw methodNotAllowed();
  const body = await decodeObject(deps, scope, "UpdateOptions");
  if ((body.metadata.name ?? "") !== info.name) {
    throw badRequest(
      `the name of the object (${body.metadata.name ?? ""}) does not match the name on the URL (${info.name})`,
    );
  }
  const finalizers = ((body["spec"] ?? {}) as { finalizers?: string[] }).finalizers;
  const precondition = body.metadata.resourceVersion ?? "";
  const updated = await store.update(
    "",
    info.name,
    (ns) => {
      // The body's resourceVersion is a precondition, as on any update.
      if (precondition !== "") ns.metadata.resourceVersion = precondition;
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

/**
 * The 404 for a subresource a resource does not have: upstream registers no route for it, so the
 * answer is the generic `the server could not find the requested resource`.
 */
export function unknownSubresource(_scope: RequestScope): never {
  throw pathNotFound();
}
