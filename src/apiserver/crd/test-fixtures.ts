// Test-only helpers: an in-process ApiServer on memory storage behind a loopback HTTP listener.
// Imported by tests only. (The Widget CRD fixture is `makeWidgetCrd` in src/testing.)
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { builtInKinds, qosClassOf } from "../../api/index.ts";
import { newMemoryStorage, type Storage } from "../../storage/index.ts";
import { discardLogger, seededRandom, systemClock } from "../../util/index.ts";
import { ApiServer } from "../api-server.ts";
import { newAnonymousAuthenticator } from "../authn.ts";

export interface Reply {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
  readonly body: any;
  readonly text: string;
  readonly headers: Headers;
}

export interface TestServer extends AsyncDisposable {
  readonly url: string;
  readonly server: ApiServer;
  readonly storage: Storage;
  /** Sends a request; JSON bodies are encoded, JSON answers decoded. */
  request(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Reply>;
  /** Waits until the watch cache (and so the CRD controller) has seen `resourceVersion`. */
  settle(resourceVersion: string | number): Promise<void>;
  /** Stops this server without closing storage, and starts a new one on the same storage. */
  restart(): Promise<TestServer>;
}

/** Starts an ApiServer on memory storage (or `storage`), with the `default` namespace. */
export async function startTestServer(storage: Storage = newMemoryStorage()): Promise<TestServer> {
  const server = new ApiServer({
    storage,
    clock: systemClock,
    random: seededRandom(7),
    logger: discardLogger,
    authenticate: newAnonymousAuthenticator(),
    kinds: builtInKinds(),
    qosClassOf: qosClassOf as never,
  });
  const stop = new AbortController();
  const { done } = await server.start(stop.signal);
  const http: Server = createServer(server.handler());
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", () => resolve()));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

  const request: TestServer["request"] = async (method, path, body, headers = {}) => {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === "string" ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)["content-type"] ??= "application/json";
    }
    const response = await fetch(`${url}${path}`, init);
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error: unknown) {
      if (!(error instanceof SyntaxError)) throw error;
      parsed = undefined;
    }
    return { status: response.status, body: parsed, text, headers: response.headers };
  };
  const shutdown = async (): Promise<void> => {
    stop.abort();
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
    await done;
  };
  const self: TestServer = {
    url,
    server,
    storage,
    request,
    settle: (rv) => server.cache.waitFor(Number(rv)),
    restart: async () => {
      await shutdown();
      return startTestServer(storage);
    },
    [Symbol.asyncDispose]: async () => {
      await shutdown();
      await storage.close();
    },
  };
  if (server.store("", "v1", "namespaces") !== undefined) {
    const existing = await request("GET", "/api/v1/namespaces/default");
    if (existing.status === 404) {
      await request("POST", "/api/v1/namespaces", { metadata: { name: "default" } });
    }
  }
  return self;
}
