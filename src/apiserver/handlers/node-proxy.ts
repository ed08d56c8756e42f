import { request } from "node:http";
import { methodNotAllowed, notFound, serviceUnavailable } from "../../api/index.ts";
import type { RequestScope } from "./scope.ts";

interface NodeShape {
  status?: {
    addresses?: { type?: string; address?: string }[];
    daemonEndpoints?: { kubeletEndpoint?: { Port?: number } };
  };
}

/** Address types tried in order, as kube-apiserver's `--kubelet-preferred-address-types`. */
const preferredAddressTypes = ["InternalIP", "ExternalIP", "InternalDNS", "ExternalDNS"];

/**
 * GET nodes/NAME/proxy/PATH: forwards the request to the node's kubelet, as upstream's node
 * proxy does, and streams its answer back unchanged. Emulated kubelets share one listener, so
 * the request names the node in its `Host` header (the node's name, its Hostname address).
 */
export async function handleNodeProxy(scope: RequestScope): Promise<void> {
  const { info, req, res } = scope;
  if (info.verb !== "get") throw methodNotAllowed();
  const node = (await scope.store.get("", info.name)) as NodeShape;
  const target = kubeletTarget(node);
  if (target === undefined) {
    throw notFound({ group: "", resource: "nodes" }, `${info.name}: no kubelet address`);
  }
  const url = new URL(req.url ?? "/", "http://gantry.local");
  const marker = `/nodes/${info.name}/proxy`;
  const path = url.pathname.slice(url.pathname.indexOf(marker) + marker.length) || "/";
  await new Promise<void>((resolve, reject) => {
    const upstream = request(
      {
        host: target.host,
        port: target.port,
        path: `${path}${url.search}`,
        method: "GET",
        headers: { host: info.name, accept: req.headers.accept ?? "*/*" },
        timeout: 10_000,
      },
      (reply) => {
        const headers: Record<string, string> = {};
        const type = reply.headers["content-type"];
        if (type !== undefined) headers["Content-Type"] = type;
        res.writeHead(reply.statusCode ?? 502, headers);
        reply.pipe(res);
        reply.on("end", () => resolve());
        reply.on("error", reject);
      },
    );
    upstream.on("timeout", () => upstream.destroy(new Error("i/o timeout")));
    upstream.on("error", (error: Error) =>
      reject(
        serviceUnavailable(
          `error trying to reach service: dial tcp ${target.host}:${target.port}: ${dialReason(error)}`,
        ),
      ),
    );
    upstream.end();
  });
}

/** Where the node's kubelet listens (its preferred address and `daemonEndpoints` port). */
export function kubeletTarget(node: NodeShape): { host: string; port: number } | undefined {
  const port = node.status?.daemonEndpoints?.kubeletEndpoint?.Port;
  if (port === undefined || port <= 0) return undefined;
  const addresses = node.status?.addresses ?? [];
  for (const type of preferredAddressTypes) {
    const address = addresses.find((a) => a.type === type)?.address;
    if (address !== undefined && address !== "") return { host: address, port };
  }
  return undefined;
}

/** The dial error as Go's net package words it. */
export function dialReason(error: Error): string {
  const code = (error as { code?: string }).code;
  return code === "ECONNREFUSED" ? "connect: connection refused" : error.message;
}
