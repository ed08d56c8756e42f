import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { builtInKinds, defaultTolerations, generateJobSelector, qosClassOf } from "../api/index.ts";
import { ApiServer, newAnonymousAuthenticator } from "../apiserver/index.ts";
import type { Storage } from "../storage/index.ts";
import { type Logger, systemClock, systemRandom } from "../util/index.ts";
import { bootstrap } from "./bootstrap.ts";
import { renderKubeconfig } from "./kubeconfig.ts";
import { openStorage, type StorageKind } from "./storage.ts";

export interface AllInOneOptions {
  readonly dataDir: string;
  readonly port: number;
  readonly address: string;
  readonly storage: StorageKind;
  readonly logger: Logger;
}

/** A running control plane in one process. */
export interface AllInOne extends AsyncDisposable {
  readonly url: string;
  readonly kubeconfigPath: string;
  readonly server: ApiServer;
  close(): Promise<void>;
}

/** Starts storage, the API server and the HTTP listener; writes the kubeconfig. */
export async function startAllInOne(options: AllInOneOptions): Promise<AllInOne> {
  if (!isLoopback(options.address)) {
    throw new Error(
      `Cannot serve plain http on ${options.address}: only loopback addresses allow anonymous http. Use --address 127.0.0.1, or --tls once it is available`,
    );
  }
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const storage: Storage = await openStorage(options.storage, dataDir);
  const token = randomBytes(24).toString("base64url");
  const apiServer = new ApiServer({
    storage,
    clock: systemClock,
    random: systemRandom,
    logger: options.logger,
    authenticate: newAnonymousAuthenticator(token),
    kinds: builtInKinds(),
    qosClassOf: qosClassOf as never,
    defaultTolerations: defaultTolerations as never,
    generateJobSelector: generateJobSelector as never,
  });
  const stop = new AbortController();
  const { done } = await apiServer.start(stop.signal);
  done.catch((error: unknown) => options.logger.error("Watch cache failed", { error }));
  await bootstrap(apiServer);

  const http: Server = createServer({ keepAliveTimeout: 65_000 }, apiServer.handler());
  await new Promise<void>((resolveListen, reject) => {
    http.once("error", reject);
    http.listen(options.port, options.address, () => resolveListen());
  });
  const port = (http.address() as AddressInfo).port;
  const host = options.address.includes(":") ? `[${options.address}]` : options.address;
  const url = `http://${host}:${port}`;
  apiServer.setAddress(`${host}:${port}`);
  const kubeconfigPath = join(dataDir, "kubeconfig");
  writeFileSync(kubeconfigPath, renderKubeconfig({ server: url, token }), { mode: 0o600 });

  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    stop.abort();
    http.closeAllConnections();
    await new Promise<void>((r) => http.close(() => r()));
    await done.catch(() => undefined);
    await storage.close();
  };
  return { url, kubeconfigPath, server: apiServer, close, [Symbol.asyncDispose]: close };
}

function isLoopback(address: string): boolean {
  return address === "localhost" || address === "::1" || address.startsWith("127.");
}
