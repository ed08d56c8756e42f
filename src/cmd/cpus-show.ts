/**
 * `gantry cpus show NODE`: which CPUs the node's CPU manager gave each container, read from a
 * running cluster through the API server's node proxy: the PodResources List
 * (`/api/v1/nodes/NODE/proxy/podresources`), GetAllocatableResources and the node's cAdvisor
 * MachineInfo (`/proxy/spec/`), whose topology says which L3 caches and NUMA nodes the CPUs sit in.
 */
import { ApiError } from "../api/index.ts";
import { type HttpClient, TransportError } from "../client/index.ts";
import { CpuSet, type CpuTopology, discoverTopology, readTopology } from "../kubelet/index.ts";
import { errorMessage } from "../util/index.ts";

/** One container's row. */
export interface ShownContainer {
  readonly namespace: string;
  readonly pod: string;
  readonly container: string;
  /** Linux list format; "" for a container in the shared pool. */
  readonly cpus: string;
  readonly l3: readonly number[];
  readonly numa: readonly number[];
}

export interface ShownNode {
  readonly node: string;
  /** The CPUs the CPU manager may assign (Linux list format). */
  readonly allocatable: string;
  readonly containers: readonly ShownContainer[];
}

/** A failure to show (exit code 1), with the message to print. */
export class ShowError extends Error {
  override readonly name = "ShowError";
}

interface PodResourcesList {
  pod_resources?: {
    name?: string;
    namespace?: string;
    containers?: { name?: string; cpu_ids?: number[] }[];
  }[];
}

/** What `show` reads from the cluster: a GET of an API path, resolving to the body. */
export type GetText = (path: string) => Promise<string>;

/**
 * GETs through `client` (`kubectl get --raw`): an error Status becomes `GET PATH: CODE: message`,
 * an unreachable server says to start the cluster.
 */
export function rawGetter(client: HttpClient): GetText {
  return async (path) => {
    try {
      return await client.getRaw(path);
    } catch (error: unknown) {
      if (error instanceof ApiError)
        throw new ShowError(`GET ${path}: ${error.code}: ${error.message}`);
      if (error instanceof TransportError) {
        throw new ShowError(
          `Cannot reach the API server at ${client.server} (${error.code}): is the cluster running? Start it with \`gantry up\``,
        );
      }
      throw error;
    }
  };
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error: unknown) {
    throw new ShowError(`Cannot read ${what}: ${errorMessage(error)}`);
  }
}

/** Reads the node's assignments and topology and joins them. */
export async function showNode(get: GetText, node: string): Promise<ShownNode> {
  const base = `/api/v1/nodes/${encodeURIComponent(node)}/proxy`;
  const [list, allocatable, spec] = await Promise.all([
    get(`${base}/podresources`),
    get(`${base}/podresources/allocatable`),
    get(`${base}/spec/`),
  ]);
  const read = readTopology(parseJson(spec, "the node's /spec/"), `node ${node} /spec/`);
  if (!read.ok) {
    throw new ShowError(`Cannot read node ${node}'s topology: ${read.problems.join("; ")}`);
  }
  const topology: CpuTopology = discoverTopology(read.nodes);
  const pods = (parseJson(list, "the podresources list") as PodResourcesList).pod_resources ?? [];
  const containers = pods.flatMap((pod) =>
    (pod.containers ?? []).map((c): ShownContainer => {
      const cpus = CpuSet.from(c.cpu_ids ?? []);
      return {
        namespace: pod.namespace ?? "",
        pod: pod.name ?? "",
        container: c.name ?? "",
        cpus: cpus.toString(),
        l3: topology.uncoreCachesOf(cpus),
        numa: topology.numaNodesOf(cpus),
      };
    }),
  );
  const ids = (parseJson(allocatable, "the allocatable resources") as { cpu_ids?: number[] })
    .cpu_ids;
  return { node, allocatable: CpuSet.from(ids ?? []).toString(), containers };
}

/** The table `gantry cpus show` prints. */
export function showTable(shown: ShownNode): string {
  const header = ["NAMESPACE", "POD", "CONTAINER", "CPUS", "L3 CACHES", "NUMA NODES"];
  const rows = shown.containers.map((c) => [
    c.namespace,
    c.pod,
    c.container,
    c.cpus === "" ? "shared" : c.cpus,
    c.l3.length === 0 ? "-" : c.l3.join(","),
    c.numa.length === 0 ? "-" : c.numa.join(","),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const format = (cells: readonly string[]): string =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd((widths[i] ?? 0) + 3))).join("");
  return `${[format(header), ...rows.map(format)].join("\n")}\n`;
}
