import { type IncomingMessage, request, type ServerResponse } from "node:http";
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
  const url = new URL(req.url ?? "/", "http://gantry.local");
  const marker = `/nodes/${info.name}/proxy`;
  const path = url.pathname.slice(url.pathname.indexOf(marker) + marker.length) || "/";
  const reply = await getFromKubelet(node, info.name, `${path}${url.search}`, {
    accept: req.headers.accept ?? "*/*",
    timeoutMs: 10_000,
  });
  const headers: Record<string, string> = {};
  const type = reply.headers["content-type"];
  if (type !== undefined) headers["Content-Type"] = type;
  res.writeHead(reply.statusCode ?? 502, headers);
  await pipeReply(reply, res);
}

/**
 * GET `path` on the kubelet of node `nodeName` (the request names the node in its `Host`
 * header: emulated kubelets share one listener). Resolves with the kubelet's answer, whatever
 * its status; rejects with 404 when the node has no kubelet address and with upstream's 503
 * when the kubelet cannot be reached. `timeoutMs` bounds the silence on the socket; without it
 * an answer may stream for as long as the kubelet writes (a followed log).
 */
export function getFromKubelet(
  node: unknown,
  nodeName: string,
  path: string,
  options: { readonly accept?: string; readonly timeoutMs?: number } = {},
): Promise<IncomingMessage> {
  const target = kubeletTarget(node as NodeShape);
  if (target === undefined) {
    return Promise.reject(
      notFound({ group: "", resource: "nodes" }, `${nodeName}: no kubelet address`),
    );
  }
  return new Promise((resolve, reject) => {
    const upstream = request(
      {
        host: target.host,
        port: target.port,
        path,
        method: "GET",
        headers: {
          host: nodeName,
          ...(options.accept === undefined ? {} : { accept: options.accept }),
        },
        ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
      },
      resolve,
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

/**
 * Streams the kubelet's answer into `res` until it ends; a reader that goes away (an
 * interrupted `kubectl logs -f`) ends the kubelet's answer too.
 */
export function pipeReply(reply: IncomingMessage, res: ServerResponse): Promise<void> {
  return new Promise((resolve, reject) => {
    reply.pipe(res);
    reply.on("end", () => resolve());
    reply.on("error", reject);
    res.on("close", () => {
      reply.destroy();
      resolve();
    });
  });
}

/** Where the node's kubelet listens (its preferred address and `daemonEndpoints` port). */
function kubeletTarget(node: NodeShape): { host: string; port: number } | undefined {
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
function dialReason(error: Error): string {
  const code = (error as { code?: string }).code;
  return code === "ECONNREFUSED" ? "connect: connection refused" : error.message;
}
