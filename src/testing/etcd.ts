import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { access, constants, mkdtemp, rm } from "node:fs/promises";
import { get as httpGet, type IncomingMessage } from "node:http";
import { get as httpsGet } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type EtcdTlsFiles, writeEtcdTlsFiles } from "./etcd-tls.ts";
import { freePort } from "./ports.ts";

/** Where Debian's etcd-server package installs the server. */
const etcdBinary = "/usr/bin/etcd";

export interface StartEtcdOptions {
  /** How many members the cluster has. */
  readonly members: 1 | 3;
  /** Keep member data here (kept on close); a fresh temp dir otherwise (removed on close). */
  readonly dataDir?: string;
  /** How long to wait for every member to report healthy. @default 30000 */
  readonly timeoutMs?: number;
  /**
   * Serve clients over https with client-certificate authentication (`--cert-file`,
   * `--key-file`, `--trusted-ca-file`, `--client-cert-auth`), with certificates made for the
   * test under the data dir's `pki/`; peers still talk plain http on loopback. @default false
   */
  readonly tls?: boolean;
}

/** One etcd member process. */
export interface EtcdMember {
  readonly name: string;
  /** `http://127.0.0.1:<port>` (`https://` with `tls`): the member's client URL. */
  readonly clientUrl: string;
  /** SIGKILLs the member's process group and waits for it to exit. Idempotent. */
  kill(): Promise<void>;
  /** Starts the member again on the same ports and data, and waits until it is healthy. */
  restart(): Promise<void>;
}

/** A throwaway etcd cluster on loopback ports. */
export interface EtcdCluster extends AsyncDisposable {
  /** Every member's client URL. */
  readonly endpoints: readonly string[];
  readonly members: readonly EtcdMember[];
  /** The CA, client and serving certificates with `tls`; undefined otherwise. */
  readonly tls: EtcdTlsFiles | undefined;
  /** Kills every member and removes the temp data dir. Idempotent. */
  close(): Promise<void>;
}

/**
 * Starts /usr/bin/etcd (1 or 3 members) on free 127.0.0.1 client and peer ports and waits for
 * every member's `/health`. Each member runs in its own process group so that `kill` takes it
 * down at once. Heartbeat and election timeouts are shortened (50/500 ms) so that a killed
 * leader is replaced within about a second.
 */
export async function startEtcd(options: StartEtcdOptions): Promise<EtcdCluster> {
  try {
    await access(etcdBinary, constants.X_OK);
  } catch (error: unknown) {
    throw new Error(
      `Cannot start etcd: ${etcdBinary} is missing or not executable (install etcd-server: apt-get install etcd-server)`,
      { cause: error },
    );
  }
  const timeoutMs = options.timeoutMs ?? 30_000;
  const owned = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), "gantry-etcd-")));
  const token = `gantry-${randomUUID()}`;
  const tls = options.tls === true ? await writeEtcdTlsFiles(join(dataDir, "pki")) : undefined;
  const specs: MemberSpec[] = [];
  for (let i = 0; i < options.members; i++) {
    specs.push({
      name: `m${i}`,
      clientPort: await freePort(),
      peerPort: await freePort(),
      dataDir: join(dataDir, `m${i}`),
    });
  }
  const initialCluster = specs.map((s) => `${s.name}=http://127.0.0.1:${s.peerPort}`).join(",");
  const members = specs.map((spec) => newMember(spec, initialCluster, token, timeoutMs, tls));
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await Promise.all(members.map((m) => m.kill()));
    if (owned) await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await Promise.all(members.map((m) => m.start()));
  } catch (error: unknown) {
    await close();
    throw error;
  }
  return {
    endpoints: members.map((m) => m.clientUrl),
    members,
    tls,
    close,
    [Symbol.asyncDispose]: close,
  };
}

interface MemberSpec {
  readonly name: string;
  readonly clientPort: number;
  readonly peerPort: number;
  readonly dataDir: string;
}

interface ManagedMember extends EtcdMember {
  start(): Promise<void>;
}

function newMember(
  spec: MemberSpec,
  initialCluster: string,
  token: string,
  timeoutMs: number,
  tls: EtcdTlsFiles | undefined,
): ManagedMember {
  const clientUrl = `${tls === undefined ? "http" : "https"}://127.0.0.1:${spec.clientPort}`;
  const peerUrl = `http://127.0.0.1:${spec.peerPort}`;
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const output: string[] = [];

  const launch = (): void => {
    const proc = spawn(
      etcdBinary,
      [
        `--name=${spec.name}`,
        `--data-dir=${spec.dataDir}`,
        `--listen-client-urls=${clientUrl}`,
        `--advertise-client-urls=${clientUrl}`,
        `--listen-peer-urls=${peerUrl}`,
        `--initial-advertise-peer-urls=${peerUrl}`,
        `--initial-cluster=${initialCluster}`,
        "--initial-cluster-state=new",
        `--initial-cluster-token=${token}`,
        "--heartbeat-interval=50",
        "--election-timeout=500",
        "--logger=zap",
        "--log-level=error",
        ...(tls === undefined
          ? []
          : [
              `--cert-file=${tls.serverCertFile}`,
              `--key-file=${tls.serverKeyFile}`,
              `--trusted-ca-file=${tls.caFile}`,
              "--client-cert-auth",
            ]),
      ],
      { detached: true, stdio: ["ignore", "ignore", "pipe"] },
    );
    proc.stderr?.on("data", (chunk: Buffer) => {
      output.push(chunk.toString());
      if (output.length > 50) output.shift();
    });
    child = proc;
    exited = new Promise((resolve) => {
      proc.once("exit", () => resolve());
      proc.once("error", () => resolve());
    });
  };

  const waitHealthy = async (): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    let last = "no answer";
    while (Date.now() < deadline) {
      if (child === undefined || child.exitCode !== null || child.signalCode !== null) {
        throw new Error(
          `etcd member ${spec.name} exited before it was healthy: ${output.join("").slice(-2000)}`,
        );
      }
      last = await health(clientUrl, tls);
      if (last === "ok") return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(
      `etcd member ${spec.name} (${clientUrl}) was not healthy within ${timeoutMs} ms (last: ${last}): ${output.join("").slice(-2000)}`,
    );
  };

  const kill = async (): Promise<void> => {
    const proc = child;
    if (proc === undefined) return;
    child = undefined;
    if (proc.exitCode === null && proc.signalCode === null && proc.pid !== undefined) {
      try {
        process.kill(-proc.pid, "SIGKILL");
      } catch (error: unknown) {
        // ESRCH: the group is already gone.
        if (!(error instanceof Error && "code" in error && error.code === "ESRCH")) throw error;
      }
    }
    await exited;
  };

  return {
    name: spec.name,
    clientUrl,
    start: async () => {
      launch();
      await waitHealthy();
    },
    kill,
    restart: async () => {
      await kill();
      launch();
      await waitHealthy();
    },
  };
}

/**
 * `"ok"` when the member's `/health` says so, otherwise what it said; over https with the
 * client certificate when the member serves TLS.
 */
function health(clientUrl: string, tls: EtcdTlsFiles | undefined): Promise<string> {
  return new Promise((resolve) => {
    const url = `${clientUrl}/health`;
    const onResponse = (res: IncomingMessage): void => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        body += chunk;
      });
      res.on("end", () => resolve(res.statusCode === 200 && body.includes('"true"') ? "ok" : body));
      res.on("error", (error) => resolve(String(error)));
    };
    const req =
      tls === undefined
        ? httpGet(url, { timeout: 1000 }, onResponse)
        : httpsGet(
            url,
            {
              timeout: 1000,
              ca: tls.ca.certPem,
              cert: tls.client.certPem,
              key: tls.client.keyPem,
              agent: false,
            },
            onResponse,
          );
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.on("error", (error) => resolve(String(error)));
  });
}
