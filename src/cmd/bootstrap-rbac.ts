import {
  ApiError,
  autoUpdateAnnotation,
  bootstrapClusterRoleBindings,
  bootstrapClusterRoles,
  type ClusterRole,
  type ClusterRoleBinding,
  type KubeObject,
} from "../api/index.ts";
import type { ApiServer } from "../apiserver/index.ts";

const systemContext = {
  user: { username: "system:apiserver", groups: ["system:masters"] },
  dryRun: false,
  fieldManager: "gantry-bootstrap",
  subresource: "",
};

type Store = NonNullable<ReturnType<ApiServer["store"]>>;

/**
 * The default ClusterRoles and ClusterRoleBindings, as kube-apiserver's bootstrap-roles hook:
 * missing ones are created; existing ones whose `rbac.authorization.kubernetes.io/autoupdate`
 * annotation is not "false" get missing rules, selectors, subjects, labels and annotations added
 * (nothing is removed). Idempotent, and safe when several API servers start on one storage.
 */
export async function reconcileBootstrapRbac(server: ApiServer): Promise<void> {
  const roles = server.store("rbac.authorization.k8s.io", "v1", "clusterroles");
  const bindings = server.store("rbac.authorization.k8s.io", "v1", "clusterrolebindings");
  if (roles === undefined || bindings === undefined) return;
  for (const role of bootstrapClusterRoles()) {
    await reconcile(
      roles,
      role as KubeObject & ClusterRole & { metadata: { name: string } },
      mergeRole,
    );
  }
  for (const binding of bootstrapClusterRoleBindings()) {
    await reconcile(
      bindings,
      binding as KubeObject & ClusterRoleBinding & { metadata: { name: string } },
      mergeBinding,
    );
  }
}

/** Adds the rules (or, for an aggregated role, the selectors) `want` has and `current` lacks. */
function mergeRole(current: KubeObject, want: ClusterRole): void {
  const next = current as ClusterRole;
  if (want.aggregationRule !== undefined) {
    // An aggregated role's rules belong to the clusterrole-aggregation controller.
    const selectors = next.aggregationRule?.clusterRoleSelectors ?? [];
    const known = new Set(selectors.map((x) => JSON.stringify(x)));
    const add = (want.aggregationRule.clusterRoleSelectors ?? []).filter(
      (x) => !known.has(JSON.stringify(x)),
    );
    if (add.length > 0) next.aggregationRule = { clusterRoleSelectors: [...selectors, ...add] };
    return;
  }
  const have = new Set((next.rules ?? []).map((r) => JSON.stringify(r)));
  const missing = (want.rules ?? []).filter((r) => !have.has(JSON.stringify(r)));
  if (missing.length > 0) next.rules = [...(next.rules ?? []), ...missing];
}

/** Adds the subjects `want` has and `current` lacks. */
function mergeBinding(current: KubeObject, want: ClusterRoleBinding): void {
  const next = current as ClusterRoleBinding;
  const id = (x: { kind: string; namespace?: string; name: string }): string =>
    `${x.kind}/${x.namespace ?? ""}/${x.name}`;
  const have = new Set((next.subjects ?? []).map(id));
  const missing = (want.subjects ?? []).filter((x) => !have.has(id(x)));
  if (missing.length > 0) next.subjects = [...(next.subjects ?? []), ...missing];
}

async function reconcile<T extends KubeObject & { metadata: { name: string } }>(
  store: Store,
  want: T,
  merge: (current: KubeObject, want: T) => void,
): Promise<void> {
  let current: KubeObject | undefined;
  try {
    current = await store.get("", want.metadata.name);
  } catch (error: unknown) {
    if (!(error instanceof ApiError && error.reason === "NotFound")) throw error;
  }
  if (current === undefined) {
    try {
      await store.create("", structuredClone(want) as KubeObject, {
        ...systemContext,
        warnings: [],
      });
      return;
    } catch (error: unknown) {
      // Another API server on the same storage created it first: reconcile that one.
      if (!(error instanceof ApiError && error.reason === "AlreadyExists")) throw error;
      current = await store.get("", want.metadata.name);
    }
  }
  if (current.metadata.annotations?.[autoUpdateAnnotation] === "false") return;
  await store.update(
    "",
    want.metadata.name,
    (latest) => {
      merge(latest, want);
      latest.metadata.labels = { ...want.metadata.labels, ...latest.metadata.labels };
      latest.metadata.annotations = {
        ...want.metadata.annotations,
        ...latest.metadata.annotations,
      };
      return latest;
    },
    { ...systemContext, warnings: [] },
  );
}
