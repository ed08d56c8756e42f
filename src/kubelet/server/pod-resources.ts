/**
 * The kubelet's PodResources v1 API (upstream `server_v1.go`), served as JSON over the node
 * proxy instead of gRPC on a unix socket: `List` (`/podresources`) and `GetAllocatableResources`
 * (`/podresources/allocatable`). Field names are the Go structs' JSON names (`pod_resources`,
 * `cpu_ids`), empty fields left out as `omitempty` does.
 */
import { isRestartableInitContainer, type Pod } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";

/** `podresources.v1.ContainerResources` (devices, memory and dynamic resources: none here). */
export interface ContainerResources {
  readonly name: string;
  readonly cpu_ids?: readonly number[];
}

/** `podresources.v1.PodResources`. */
export interface PodResources {
  readonly name: string;
  readonly namespace: string;
  readonly containers?: readonly ContainerResources[];
}

/** `podresources.v1.ListPodResourcesResponse`. */
export interface ListPodResourcesResponse {
  readonly pod_resources?: readonly PodResources[];
}

/** `podresources.v1.AllocatableResourcesResponse`. */
export interface AllocatableResourcesResponse {
  readonly cpu_ids?: readonly number[];
}

/** Upstream's `GetCPUs`: a container's exclusive CPUs, empty when it has none. */
export type CpusOf = (podUid: string, containerName: string) => readonly number[];

/**
 * Upstream's `List` over the node's active pods (the order given): restartable init containers
 * (sidecars) first, then app containers; plain init containers are not listed. `cpu_ids` are
 * the container's exclusive CPUs only (ascending; upstream's order is unspecified), so a
 * container in the shared pool has none.
 */
export function listPodResources(
  pods: readonly DeepReadonly<Pod>[],
  cpusOf: CpusOf,
): ListPodResourcesResponse {
  if (pods.length === 0) return {};
  return {
    pod_resources: pods.map((pod) => {
      const uid = pod.metadata.uid ?? "";
      const containers = [
        ...(pod.spec.initContainers ?? []).filter((c) => isRestartableInitContainer(c)),
        ...(pod.spec.containers ?? []),
      ].map((c): ContainerResources => {
        const cpus = cpusOf(uid, c.name);
        return cpus.length === 0 ? { name: c.name } : { name: c.name, cpu_ids: [...cpus] };
      });
      return {
        name: pod.metadata.name ?? "",
        namespace: pod.metadata.namespace ?? "",
        ...(containers.length === 0 ? {} : { containers }),
      };
    }),
  };
}

/** Upstream's `GetAllocatableResources`: the CPUs the CPU manager may assign. */
export function allocatableResources(cpus: readonly number[]): AllocatableResourcesResponse {
  return cpus.length === 0 ? {} : { cpu_ids: [...cpus] };
}

/**
 * Upstream's `GetActivePods` filter: pods that are not terminal (Succeeded or Failed, which
 * includes pods refused at admission), sorted by namespace and name.
 */
export function activePods(pods: readonly DeepReadonly<Pod>[]): DeepReadonly<Pod>[] {
  return pods
    .filter((p) => p.status?.phase !== "Succeeded" && p.status?.phase !== "Failed")
    .sort((a, b) => {
      const ka = `${a.metadata.namespace ?? ""}/${a.metadata.name ?? ""}`;
      const kb = `${b.metadata.namespace ?? ""}/${b.metadata.name ?? ""}`;
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
}
