import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ApiServer } from "../apiserver/index.ts";
import {
  decodeCertificateAuthority,
  type HttpClient,
  loadKubeconfig,
  newClient,
} from "../client/index.ts";
import { type AllInOne, startAllInOne } from "../cmd/index.ts";
import { openSqliteStorage } from "../storage/index.ts";
import { discardLogger, type Logger } from "../util/index.ts";

export interface ClusterHarnessOptions {
  /** @default "memory" */
  readonly storage?: "memory" | "sqlite";
  /** Use (and keep) this data dir; by default a fresh temp dir, removed on dispose. */
  readonly dataDir?: string;
  /** The loopback port to listen on; reuse an old harness's port to simulate a restart. @default 0 */
  readonly port?: number;
  /** The user agent of `client`. @default "gantry/test" */
  readonly userAgent?: string;
  /** @default discardLogger */
  readonly logger?: Logger;
  /** Serve https with a generated CA and require the kubeconfig's bearer token. @default false */
  readonly tls?: boolean;
}

/** An in-process control plane over real HTTP(S) on 127.0.0.1, and a client for it. */
export interface ClusterHarness extends AsyncDisposable {
  /** A client configured from the kubeconfig the control plane wrote. */
  readonly client: HttpClient;
  /** `http://127.0.0.1:<port>` (https with `tls`); stays the same across `restart`. */
  readonly url: string;
  readonly port: number;
  readonly kubeconfigPath: string;
  readonly dataDir: string;
  /** The running API server (a new one after `restart`). */
  readonly server: ApiServer;
  /** Another client for the same server (closed on dispose). */
  newClient(userAgent: string): HttpClient;
  /** Stops the control plane, keeping the data dir and clients. Idempotent. */
  stop(): Promise<void>;
  /**
   * Stops the control plane and starts a new one on the same data dir and port (SQLite only).
   * With `compact`, storage history is compacted to the latest revision while stopped, so lists
   * at older revisions answer 410. Existing clients keep working.
   */
  restart(options?: { compact?: boolean }): Promise<void>;
}

/**
 * Boots the all-in-one control plane in this process (memory storage unless told otherwise) on a
 * free loopback port, and a client configured from the kubeconfig it writes.
 */
export async function startClusterHarness(
  options: ClusterHarnessOptions = {},
): Promise<ClusterHarness> {
  const storage = options.storage ?? "memory";
  const owned = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "gantry-harness-"));
  const logger = options.logger ?? discardLogger;
  const boot = (port: number): Promise<AllInOne> =>
    startAllInOne({
      dataDir,
      port,
      address: "127.0.0.1",
      storage,
      logger,
      ...(options.tls === true ? { tls: { sans: [] } } : {}),
    });

  let plane: AllInOne;
  try {
    plane = await boot(options.port ?? 0);
  } catch (error: unknown) {
    if (owned) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const port = Number(new URL(plane.url).port);
  let running = true;
  const clients: HttpClient[] = [];
  const makeClient = (userAgent: string): HttpClient => {
    const config = loadKubeconfig(readFileSync(plane.kubeconfigPath, "utf8"));
    const client = newClient({
      server: config.server,
      userAgent,
      ...(config.token === undefined ? {} : { token: config.token }),
      ...(config.certificateAuthorityData === undefined
        ? {}
        : { ca: decodeCertificateAuthority(config.certificateAuthorityData) }),
      ...(config.clientCertificateData === undefined || config.clientKeyData === undefined
        ? {}
        : {
            cert: decodeCertificateAuthority(config.clientCertificateData),
            key: decodeCertificateAuthority(config.clientKeyData),
          }),
      ...(config.insecureSkipTlsVerify === true ? { insecureSkipTlsVerify: true } : {}),
    });
    clients.push(client);
    return client;
  };
  const client = makeClient(options.userAgent ?? "gantry/test");

  const stop = async (): Promise<void> => {
    if (!running) return;
    running = false;
    await plane.close();
    // One event-loop turn, so clients in this process see their pooled connections close.
    await new Promise<void>((resolve) => setImmediate(resolve));
  };

  return {
    client,
    url: plane.url,
    port,
    kubeconfigPath: plane.kubeconfigPath,
    dataDir,
    get server(): ApiServer {
      return plane.server;
    },
    newClient: makeClient,
    stop,
    async restart(restartOptions = {}): Promise<void> {
      if (storage !== "sqlite") {
        throw new TypeError("Cannot restart a harness on memory storage: its state would be lost");
      }
      await stop();
      if (restartOptions.compact === true) await compactSqlite(dataDir);
      plane = await boot(port);
      running = true;
    },
    async [Symbol.asyncDispose](): Promise<void> {
      for (const c of clients) c.close();
      await stop();
      if (owned) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Compacts a stopped control plane's SQLite store up to its latest revision. */
async function compactSqlite(dataDir: string): Promise<void> {
  const store = await openSqliteStorage({ path: join(dataDir, "state.db") });
  try {
    await store.compact(await store.currentRevision());
  } finally {
    await store.close();
  }
}
