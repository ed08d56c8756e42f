/**
 * The HTTP listener of a separately run component (`gantry scheduler`, `controller-manager`,
 * `queueing`): `/healthz`, `/livez` and `/readyz` (see `health-checks.ts`) and `/metrics` in
 * Prometheus text, as kube-scheduler serves on 10259 and kube-controller-manager on 10257.
 * Plain http without authentication: upstream serves https and delegates authn/authz of
 * `/metrics` to the API server.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Registry } from "prom-client";
import { errorMessage } from "../util/index.ts";
import { answerHealth, type HealthCheck } from "./health-checks.ts";

export interface ComponentServerOptions {
  /** The IP address to bind (`--bind-address`). */
  readonly address: string;
  /** The port (`--secure-port`); 0 picks a free one. */
  readonly port: number;
  /** The checks of each health path, read at every request. */
  readonly healthz: () => readonly HealthCheck[];
  readonly livez: () => readonly HealthCheck[];
  readonly readyz: () => readonly HealthCheck[];
  /** What `/metrics` serves. */
  readonly metrics: Registry;
}

/** A listening component server; `close` stops it and drops open connections. */
export interface ComponentServer {
  /** `http://ADDRESS:PORT`, with the port actually bound. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Starts listening; rejects with an error naming the address when the port cannot be bound. */
export async function startComponentServer(
  options: ComponentServerOptions,
): Promise<ComponentServer> {
  const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
    handle(options, req, res).catch((error: unknown) => {
      if (!res.headersSent) text(res, 500, `${errorMessage(error)}\n`);
      else res.destroy();
    });
  });
  try {
    await new Promise<void>((resolveListen, reject) => {
      server.once("error", reject);
      server.listen(options.port, options.address, () => {
        server.off("error", reject);
        resolveListen();
      });
    });
  } catch (error: unknown) {
    throw new Error(
      `Cannot serve health and metrics on ${hostPort(options.address, options.port)}: ${errorMessage(error)}`,
      { cause: error },
    );
  }
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${hostPort(options.address, port)}`,
    port,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeAllConnections();
      }),
  };
}

async function handle(
  options: ComponentServerOptions,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? "/", "http://component");
  if (url.pathname === "/metrics") {
    const body = await options.metrics.metrics();
    res.writeHead(200, { "Content-Type": options.metrics.contentType });
    res.end(body);
    return;
  }
  for (const [path, checks] of [
    ["healthz", options.healthz],
    ["livez", options.livez],
    ["readyz", options.readyz],
  ] as const) {
    const answer = answerHealth(path, checks, url.pathname, url.searchParams);
    if (answer !== undefined) {
      text(res, answer.status, answer.body);
      return;
    }
  }
  text(res, 404, "404 page not found\n");
}

function text(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, {
    "Content-Type": "text/plain; charset=utf-8",
    "X-Content-Type-Options": "nosniff",
  });
  res.end(body);
}

function hostPort(address: string, port: number): string {
  return address.includes(":") ? `[${address}]:${port}` : `${address}:${port}`;
}
