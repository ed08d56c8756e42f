import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { builtInKinds, qosClassOf } from "../api/index.ts";
import { ApiServer, type ApiServerOptions, newAnonymousAuthenticator } from "../apiserver/index.ts";
import { newMemoryStorage } from "../storage/index.ts";
import { discardLogger, seededRandom, systemClock } from "../util/index.ts";

/** An ApiServer on memory storage behind a real HTTP listener on 127.0.0.1. */
export interface TestApiServer extends AsyncDisposable {
  readonly url: string;
  readonly server: ApiServer;
  /** Sends a request; `body` is sent as JSON, `headers` as given. */
  send(
    method: string,
    path: string,
    options?: { readonly body?: unknown; readonly headers?: Readonly<Record<string, string>> },
  ): Promise<Response>;
}

/**
 * Starts an ApiServer with the given options over the defaults (memory storage, anonymous
 * access, AlwaysAllow, the system clock), listening on a free loopback port. Dispose to stop it.
 */
export async function startTestApiServer(
  options: Partial<ApiServerOptions> = {},
): Promise<TestApiServer> {
  const storage = options.storage ?? newMemoryStorage();
  const server = new ApiServer({
    storage,
    clock: systemClock,
    random: seededRandom(11),
    logger: discardLogger,
    authenticate: newAnonymousAuthenticator(),
    kinds: builtInKinds(),
    qosClassOf: qosClassOf as never,
    ...options,
  });
  const stop = new AbortController();
  const { done } = await server.start(stop.signal);
  const http = createServer(server.handler());
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", () => resolve()));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    url,
    server,
    send: (method, path, request = {}) =>
      fetch(`${url}${path}`, {
        method,
        headers: {
          ...(request.body === undefined ? {} : { "content-type": "application/json" }),
          ...request.headers,
        },
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
        signal: AbortSignal.timeout(20_000),
      }),
    async [Symbol.asyncDispose]() {
      stop.abort();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await done;
      await storage.close();
    },
  };
}
