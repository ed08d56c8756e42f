/**
 * One HTTP handler for every emulated kubelet of a fleet, virtual-hosted by node name: the
 * `Host` header (without a port) picks the node, as if each kubelet listened on its own address.
 * Serves the read-only endpoints `/spec/`, `/pods`, `/configz`, `/healthz`, `/metrics`, the
 * PodResources API as JSON: `/podresources` (List) and `/podresources/allocatable`
 * (GetAllocatableResources), and containers' logs at `/containerLogs/NAMESPACE/POD/CONTAINER`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Pod } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { prometheusTextContentType } from "../internal/prometheus-text.ts";
import { containerLog, containerLogOptions, queryFlag } from "./container-logs.ts";

/** What the server reads from a fleet. Each lookup is `undefined` for a node it does not run. */
export interface KubeletEndpoints {
  /** Whether the node's kubelet is up: `false` while it is failed, `undefined` if unknown. */
  isRunning(nodeName: string): boolean | undefined;
  spec(nodeName: string): unknown;
  pods(nodeName: string): { readonly items: readonly DeepReadonly<Pod>[] } | undefined;
  configz(nodeName: string): unknown;
  /** PodResources `List`: the node's active pods and their containers' exclusive CPUs. */
  podResources(nodeName: string): unknown;
  /** PodResources `GetAllocatableResources`. */
  allocatableResources(nodeName: string): unknown;
  /** The kubelet's metrics in Prometheus' text format. */
  metrics(nodeName: string): string | undefined;
}

function send(res: ServerResponse, status: number, body: string, type: string): void {
  res.writeHead(status, { "Content-Type": type, "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

function sendJson(res: ServerResponse, body: unknown): void {
  send(res, 200, JSON.stringify(body), "application/json");
}

/** The node a request is for: its Host header without the port (lower-cased). */
export function nodeNameOfHost(host: string | undefined): string {
  if (host === undefined) return "";
  const trimmed = host.trim().toLowerCase();
  if (trimmed.startsWith("[")) return trimmed.slice(1, trimmed.indexOf("]"));
  const colon = trimmed.lastIndexOf(":");
  return colon < 0 ? trimmed : trimmed.slice(0, colon);
}

/** The request handler; mount it on any `http.Server` (the lead wires the API server proxy). */
export function newKubeletServer(
  fleet: KubeletEndpoints,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const node = nodeNameOfHost(req.headers.host);
    const path = new URL(req.url ?? "/", "http://kubelet").pathname;
    if (req.method !== "GET" && req.method !== "HEAD") {
      send(res, 405, "405 method not allowed\n", "text/plain; charset=utf-8");
      return;
    }
    const running = fleet.isRunning(node);
    if (running === undefined) {
      send(res, 404, `no emulated kubelet runs node "${node}"\n`, "text/plain; charset=utf-8");
      return;
    }
    if (!running) {
      send(res, 503, `the kubelet of node "${node}" is down\n`, "text/plain; charset=utf-8");
      return;
    }
    switch (path) {
      case "/healthz":
        send(res, 200, "ok", "text/plain; charset=utf-8");
        return;
      case "/spec":
      case "/spec/":
        sendJson(res, fleet.spec(node));
        return;
      case "/pods":
      case "/pods/":
        sendJson(res, fleet.pods(node));
        return;
      case "/configz":
        sendJson(res, fleet.configz(node));
        return;
      case "/podresources":
      case "/podresources/":
        sendJson(res, fleet.podResources(node));
        return;
      case "/podresources/allocatable":
        sendJson(res, fleet.allocatableResources(node));
        return;
      case "/metrics":
        send(res, 200, fleet.metrics(node) ?? "", prometheusTextContentType);
        return;
      default:
        if (path.startsWith("/containerLogs/")) {
          serveContainerLog(fleet, node, path, req, res);
          return;
        }
        send(res, 404, "404 page not found\n", "text/plain; charset=utf-8");
    }
  };
}

/** How often a followed log checks whether its container has stopped. */
const followPollMs = 1000;

/**
 * `/containerLogs/NAMESPACE/POD/CONTAINER`: the log as text; 400 with the kubelet's message when
 * the container has none (waiting, no previous instance). With `follow`, the answer stays open
 * while the container runs (its declared output is all written at start) and ends when it stops
 * or the reader goes.
 */
function serveContainerLog(
  fleet: KubeletEndpoints,
  node: string,
  path: string,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const [namespace = "", podName = "", container = ""] = path
    .slice("/containerLogs/".length)
    .split("/")
    .map(decodeURIComponent);
  const query = new URL(req.url ?? "/", "http://kubelet").searchParams;
  const find = () =>
    fleet
      .pods(node)
      ?.items.find((p) => p.metadata.namespace === namespace && p.metadata.name === podName);
  const result = containerLog(find(), container, containerLogOptions(query, Date.now()));
  if (result.status !== 200) {
    send(res, result.status, result.message, "text/plain; charset=utf-8");
    return;
  }
  if (!queryFlag(query, "follow") || !result.running) {
    send(res, 200, result.text, "text/plain");
    return;
  }
  res.writeHead(200, { "Content-Type": "text/plain" });
  res.write(result.text);
  const poll = setInterval(() => {
    const now = containerLog(find(), container, { previous: false, timestamps: false });
    if (now.status !== 200 || !now.running) {
      clearInterval(poll);
      res.end();
    }
  }, followPollMs);
  res.on("close", () => clearInterval(poll));
}
