/**
 * The Unix domain socket over which `gantry up`'s own components (scheduler, controller
 * manager, queueing, emulated kubelets) reach the API server: the same HTTP API and the same
 * bearer-token authentication as on the TCP port, without the loopback TCP stack under every
 * request and watch event (decision 0017). Only the data directory's owner may open it (mode
 * 0600); everyone else, kubectl included, uses the TCP port.
 */
import { chmodSync, existsSync, rmSync } from "node:fs";
import { createServer, type RequestListener } from "node:http";
import { connect } from "node:net";
import { join } from "node:path";
import { errorMessage, type Logger } from "../util/index.ts";

/** The socket's name in the data directory. */
export const componentSocketName = "apiserver.sock";

/**
 * The longest socket path every platform gantry runs on accepts: `sun_path` holds 108 bytes on
 * Linux and 104 on macOS, the terminating NUL included.
 */
export const maxSocketPathBytes = 103;

export interface ComponentSocket {
  readonly path: string;
  /** Stops listening, closes open connections and removes the socket file. Idempotent. */
  close(): Promise<void>;
}

/**
 * Serves `handler` on `DATA_DIR/apiserver.sock`, replacing a file a stopped server left
 * behind. Resolves to undefined, and the components keep to TCP, when the path is too long for
 * a socket address, another running server answers on it (a second gantry on the same data
 * dir must not take the first one's components), or the socket cannot be made (the reason is
 * logged).
 */
export async function listenComponentSocket(
  dataDir: string,
  handler: RequestListener,
  logger: Logger,
): Promise<ComponentSocket | undefined> {
  const path = join(dataDir, componentSocketName);
  if (Buffer.byteLength(path) > maxSocketPathBytes) {
    logger.v(1).info("Components reach the API server over TCP: the socket path is too long", {
      path,
      maxBytes: maxSocketPathBytes,
    });
    return undefined;
  }
  if (existsSync(path) && (await answers(path))) {
    logger.info("Components reach the API server over TCP: another server answers on the socket", {
      path,
    });
    return undefined;
  }
  const server = createServer({ keepAliveTimeout: 65_000 }, handler);
  try {
    rmSync(path, { force: true });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(path, () => {
        server.off("error", reject);
        resolve();
      });
    });
    chmodSync(path, 0o600);
  } catch (error: unknown) {
    server.close();
    logger.info("Components reach the API server over TCP: cannot serve the socket", {
      path,
      error: errorMessage(error),
    });
    return undefined;
  }
  let closed: Promise<void> | undefined;
  return {
    path,
    close: () => {
      closed ??= new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          rmSync(path, { force: true });
          resolve();
        });
      });
      return closed;
    },
  };
}

/** Whether something accepts connections on the socket at `path` (a live server, not a stale file). */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect({ path });
    probe.once("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.once("error", () => resolve(false));
  });
}
