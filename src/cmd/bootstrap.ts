import { ApiError, type KubeObject } from "../api/index.ts";
import type { ApiServer } from "../apiserver/index.ts";
import { reconcileBootstrapRbac } from "./bootstrap-rbac.ts";
import { kueueCrds } from "./crds/kueue.ts";
import { leaderWorkerSetCrd } from "./crds/leader-worker-set.ts";

const systemContext = {
  user: { username: "system:apiserver", groups: ["system:masters"] },
  dryRun: false,
  fieldManager: "gantry-bootstrap",
  warnings: [] as string[],
  subresource: "",
};

/**
 * The objects every cluster starts with: system namespaces, priority classes, the default
 * StorageClass `standard` and the CRDs of the controllers gantry runs (LeaderWorkerSet, and
 * Kueue's for the queueing component). A namespace, priority class or storage class that exists
 * is left as it is, so several API servers starting at
 * once on one storage create each object exactly once. The CRDs are gantry's own: one that
 * exists gets this gantry's spec, as `kubectl apply` of a newer Kueue release updates Kueue's
 * (a spec that is already current is not written again).
 */
export async function bootstrap(server: ApiServer): Promise<void> {
  const namespaces = server.store("", "v1", "namespaces");
  for (const name of ["default", "kube-system", "kube-public", "kube-node-lease"]) {
    await ensure(namespaces, "", { metadata: { name } });
  }
  const classes = server.store("scheduling.k8s.io", "v1", "priorityclasses");
  await ensure(classes, "", {
    metadata: { name: "system-cluster-critical" },
    value: 2000000000,
    description:
      "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.",
  });
  await ensure(classes, "", {
    metadata: { name: "system-node-critical" },
    value: 2000001000,
    description: "Used for system critical pods that must not be moved from their current node.",
  });
  // The default class, as kind ships `standard`: claims without a class get volumes from the
  // persistentvolume-binder's emulated provisioner, at once (the scheduler has no VolumeBinding
  // step that would set a WaitForFirstConsumer claim's node).
  const storageClasses = server.store("storage.k8s.io", "v1", "storageclasses");
  await ensure(storageClasses, "", {
    metadata: {
      name: "standard",
      annotations: { "storageclass.kubernetes.io/is-default-class": "true" },
    },
    provisioner: "gantry.dev/emulated",
    reclaimPolicy: "Delete",
    volumeBindingMode: "Immediate",
  });
  const crds = server.store("apiextensions.k8s.io", "v1", "customresourcedefinitions");
  for (const crd of [leaderWorkerSetCrd(), ...kueueCrds()]) {
    await ensureCurrentSpec(crds, crd as KubeObject & { metadata: { name: string } });
  }
  await reconcileBootstrapRbac(server);
}

/** Creates `obj`, or gives the stored object `obj`'s spec; the store skips a write that changes nothing. */
async function ensureCurrentSpec(
  store: ReturnType<ApiServer["store"]>,
  obj: KubeObject & { metadata: { name: string } },
): Promise<void> {
  if (store === undefined) return;
  await ensure(store, "", obj);
  try {
    await store.update(
      "",
      obj.metadata.name,
      (current) => {
        current["spec"] = structuredClone(obj["spec"]);
        return current;
      },
      { ...systemContext, warnings: [] },
    );
  } catch (error: unknown) {
    // Deleted since `ensure` (by a user, or another API server's cleanup): nothing to update.
    if (!(error instanceof ApiError && error.reason === "NotFound")) throw error;
  }
}

async function ensure(
  store: ReturnType<ApiServer["store"]>,
  namespace: string,
  obj: Omit<KubeObject, "metadata"> & {
    metadata: { name: string; annotations?: Record<string, string> };
  },
): Promise<void> {
  if (store === undefined) return;
  try {
    await store.get(namespace, obj.metadata.name);
    return;
  } catch (error: unknown) {
    if (!(error instanceof ApiError && error.reason === "NotFound")) throw error;
  }
  try {
    await store.create(namespace, structuredClone(obj) as KubeObject, {
      ...systemContext,
      warnings: [],
    });
  } catch (error: unknown) {
    // Another API server on the same storage created it first: it exists once, as wanted.
    if (!(error instanceof ApiError && error.reason === "AlreadyExists")) throw error;
  }
}
