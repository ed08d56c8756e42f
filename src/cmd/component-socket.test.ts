import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { get as httpGet } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import type { Pod } from "../api/index.ts";
import {
  decodeCertificateAuthority,
  loadKubeconfig,
  namespacesResource,
  newClient,
  podsResource,
} from "../client/index.ts";
import { defaultClusterConfig } from "../kubelet/index.ts";
import { eventually, makePod } from "../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../testing/leak-check.ts";
import { discardLogger, type Logger } from "../util/index.ts";
import { startAllInOne } from "./all-in-one.ts";
import {
  componentSocketName,
  listenComponentSocket,
  maxSocketPathBytes,
} from "./component-socket.ts";

ensureNoLeaksInEachTest();

/** A logger that keeps each line's message. */
function recordingLogger(lines: string[]): Logger {
  const logger: Logger = {
    info: (message: string) => lines.push(message),
    error: (message: string) => lines.push(message),
    v: () => logger,
    withValues: () => logger,
    withName: () => logger,
    enabled: () => true,
  } as unknown as Logger;
  return logger;
}

async function withScratch(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "gantry-sock-"));
  try {
    await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("listenComponentSocket", () => {
  test("serves the handler on DATA_DIR/apiserver.sock, mode 0600, for a client given the path; close removes it", async () => {
    await withScratch(async (dir) => {
      // A file a stopped server left behind is replaced.
      writeFileSync(join(dir, componentSocketName), "stale");
      const socket = await listenComponentSocket(
        dir,
        (req, res) => {
          res.setHeader("Content-Type", "application/json");
          res.end(
            JSON.stringify({
              kind: "Namespace",
              apiVersion: "v1",
              metadata: { name: req.url?.split("/").pop() ?? "", uid: req.headers.authorization },
            }),
          );
        },
        discardLogger,
      );
      assert.ok(socket !== undefined, "the socket is served");
      assert.equal(socket.path, join(dir, componentSocketName));
      assert.equal(statSync(socket.path).mode & 0o777, 0o600, "only the owner may connect");
      assert.ok(statSync(socket.path).isSocket(), "the stale file was replaced by the socket");
      // The URL names a TCP port nothing listens on: the request can only go through the socket.
      const client = newClient({
        server: "https://127.0.0.1:1",
        userAgent: "gantry/test",
        token: "secret",
        socketPath: socket.path,
      });
      try {
        const ns = await client.get(namespacesResource, undefined, "ns-a");
        assert.equal(ns.metadata.name, "ns-a");
        assert.equal(ns.metadata.uid, "Bearer secret", "the bearer token still goes with requests");
      } finally {
        client.close();
        await socket.close();
      }
      assert.equal(existsSync(socket.path), false, "close removes the socket file");
      await socket.close();
    });
  });

  test("a socket another running server answers on is left to it: the components keep to TCP, and the log says so", async () => {
    await withScratch(async (dir) => {
      const first = await listenComponentSocket(
        dir,
        (_req, res) => res.end("first"),
        discardLogger,
      );
      assert.ok(first !== undefined, "the first server serves the socket");
      const lines: string[] = [];
      try {
        const second = await listenComponentSocket(
          dir,
          (_req, res) => res.end("second"),
          recordingLogger(lines),
        );
        assert.equal(second, undefined);
        assert.deepEqual(lines, [
          "Components reach the API server over TCP: another server answers on the socket",
        ]);
        assert.ok(statSync(first.path).isSocket(), "the first server's socket is still there");
        const body = await new Promise<string>((resolve, reject) => {
          httpGet({ socketPath: first.path, path: "/", agent: false }, (res) => {
            let text = "";
            res.on("data", (chunk: Buffer) => {
              text += chunk.toString();
            });
            res.on("end", () => resolve(text));
          }).on("error", reject);
        });
        assert.equal(body, "first", "the first server still answers on its socket");
      } finally {
        await first.close();
      }
    });
  });

  test("a data dir whose socket path is too long keeps the components on TCP, and says so", async () => {
    await withScratch(async (dir) => {
      const deep = join(dir, "d".repeat(maxSocketPathBytes));
      const lines: string[] = [];
      const socket = await listenComponentSocket(deep, () => undefined, recordingLogger(lines));
      assert.equal(socket, undefined);
      assert.deepEqual(lines, [
        "Components reach the API server over TCP: the socket path is too long",
      ]);
    });
  });

  test("a socket that cannot be made (no such directory) keeps the components on TCP, and says so", async () => {
    await withScratch(async (dir) => {
      const lines: string[] = [];
      const socket = await listenComponentSocket(
        join(dir, "missing"),
        () => undefined,
        recordingLogger(lines),
      );
      assert.equal(socket, undefined);
      assert.deepEqual(lines, [
        "Components reach the API server over TCP: cannot serve the socket",
      ]);
    });
  });
});

describe("gantry up's components over the socket", () => {
  test("with https, the scheduler and a kubelet in worker threads reach the API server through DATA_DIR/apiserver.sock and a pod runs; stopping removes the socket", async () => {
    await withScratch(async (dir) => {
      const dataDir = join(dir, "data");
      const plane = await startAllInOne({
        dataDir,
        port: 0,
        address: "127.0.0.1",
        storage: "memory",
        logger: discardLogger,
        tls: { sans: [] },
        components: { cluster: defaultClusterConfig(1), scheduler: true, threads: true },
      });
      const path = join(dataDir, componentSocketName);
      const config = loadKubeconfig(readFileSync(plane.kubeconfigPath, "utf8"));
      const client = newClient({
        server: config.server,
        userAgent: "gantry/test",
        ...(config.certificateAuthorityData === undefined
          ? {}
          : { ca: decodeCertificateAuthority(config.certificateAuthorityData) }),
        ...(config.clientCertificateData === undefined || config.clientKeyData === undefined
          ? {}
          : {
              cert: decodeCertificateAuthority(config.clientCertificateData),
              key: decodeCertificateAuthority(config.clientKeyData),
            }),
      });
      try {
        assert.ok(statSync(path).isSocket(), "the components' socket is served");
        await client.create<Pod>(
          podsResource,
          makePod("p").namespace("default").container({ cpu: "100m" }).obj(),
        );
        const running = await eventually(async () => {
          const pod = await client.get<Pod>(podsResource, "default", "p");
          assert.equal(pod.status?.phase, "Running");
          return pod;
        }, 30_000);
        assert.equal(running.spec.nodeName, "node-0");
        // Linux lists the listening socket and every connection accepted on it under its path.
        const entries = readFileSync("/proc/net/unix", "utf8")
          .split("\n")
          .filter((line) => line.endsWith(` ${path}`));
        assert.ok(
          entries.length >= 3,
          `the listener and the components' connections (${entries.length} entries)`,
        );
      } finally {
        client.close();
        await plane.close();
      }
      assert.equal(existsSync(path), false, "stopping removes the socket file");
    });
  });
});
