/**
 * A node's CPU picture through the API server's node proxy, as `gantry cpus show` reads it: the
 * kubelet's PodResources List and GetAllocatableResources, and cAdvisor's MachineInfo.
 */
import {
  layoutTopology,
  type MachineInfo,
  type PodResourcesList,
  type TopologyLayout,
} from "../model/topology-layout.ts";
import type { ApiClient } from "./api-client.ts";

export async function fetchNodeTopology(
  api: ApiClient,
  node: string,
  signal: AbortSignal,
): Promise<TopologyLayout> {
  const base = `/api/v1/nodes/${encodeURIComponent(node)}/proxy`;
  const [list, allocatable, machine] = await Promise.all([
    api.getJson<PodResourcesList>(`${base}/podresources`, signal),
    api.getJson<{ cpu_ids?: readonly number[] }>(`${base}/podresources/allocatable`, signal),
    api.getJson<MachineInfo>(`${base}/spec/`, signal),
  ]);
  return layoutTopology(machine, allocatable.cpu_ids ?? [], list);
}
