import assert from "node:assert/strict";
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { parse as parseYaml } from "yaml";

const repoRoot = resolve(import.meta.dirname, "..", "..");

/** A `gantry up` (or `gantry apiserver`) child process on a loopback port, with its own data dir. */
export interface GantryProcess extends AsyncDisposable {
  readonly kubeconfig: string;
  readonly dataDir: string;
  readonly url: string;
  /**
   * The admin bearer token: the kubeconfig's, or with `--tls` (whose kubeconfig authenticates
   * with the admin's client certificate) the one in DATA_DIR/pki/admin.token.
   */
  readonly token: string;
  /** The CA certificate (PEM) from the kubeconfig; undefined for plain http. */
  readonly caPem: string | undefined;
  readonly child: ChildProcess;
  /** Stops the process with SIGTERM (or `signal`) and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface StartOptions {
  /** Reuse a data dir (for restart tests); a fresh temp dir otherwise. */
  readonly dataDir?: string;
  readonly storage?: "memory" | "sqlite" | "etcd";
  /** The etcd members' client URLs, for `storage: "etcd"`. */
  readonly etcdEndpoints?: readonly string[];
  /** `--etcd-prefix`. @default the server's ("/registry") */
  readonly etcdPrefix?: string;
  /** `gantry up` (everything in one process) or `gantry apiserver` (the API server alone). @default "up" */
  readonly command?: "up" | "apiserver";
  /** Serve https (`--tls`): readiness is checked with the generated CA and token. */
  readonly tls?: boolean;
  /** A fixed port (to restart on the same one); a free port otherwise. */
  readonly port?: number;
  readonly extraArgs?: readonly string[];
  /** @default 30000 */
  readonly timeoutMs?: number;
}

/**
 * Starts the real `gantry up` (or `gantry apiserver`) and waits for its kubeconfig line and a
 * 200 from /readyz.
 */
export async function startGantry(options: StartOptions = {}): Promise<GantryProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "gantry-e2e-"));
  const owned = options.dataDir === undefined;
  const child = spawn(
    process.execPath,
    [
      join(repoRoot, "bin", "gantry.js"),
      options.command ?? "up",
      "--data-dir",
      dataDir,
      "--port",
      String(options.port ?? 0),
      "--storage",
      options.storage ?? "sqlite",
      ...(options.etcdEndpoints === undefined
        ? []
        : ["--etcd-endpoints", options.etcdEndpoints.join(",")]),
      ...(options.etcdPrefix === undefined ? [] : ["--etcd-prefix", options.etcdPrefix]),
      ...(options.tls === true ? ["--tls"] : []),
      ...(options.extraArgs ?? []),
    ],
    { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] },
  );
  const stderr: string[] = [];
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr.push(chunk.toString());
    if (stderr.length > 200) stderr.shift();
  });
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  const stopNow = (): void => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  let kubeconfig: string;
  let server: ReturnType<typeof readKubeconfig>;
  try {
    kubeconfig = await kubeconfigLine(child, stderr, options.timeoutMs ?? 30_000);
    server = readKubeconfig(kubeconfig);
    const readyz = await requestGantry(`${server.url}/readyz`, {
      token: server.token,
      ...(server.caPem === undefined ? {} : { caPem: server.caPem }),
    });
    if (readyz.status !== 200) throw new Error(`/readyz answered ${readyz.status}: ${readyz.body}`);
  } catch (error: unknown) {
    stopNow();
    await exited;
    if (owned) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const { url, token, caPem } = server;
  const stop = async (signal: NodeJS.Signals = "SIGTERM"): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  };
  return {
    kubeconfig,
    dataDir,
    url,
    token,
    caPem,
    child,
    stop,
    [Symbol.asyncDispose]: async () => {
      await stop();
      if (owned) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Waits for the `kubeconfig: PATH` line `gantry up` prints once it listens. */
function kubeconfigLine(child: ChildProcess, stderr: string[], timeoutMs: number): Promise<string> {
  return new Promise<string>((resolveLine, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`gantry up did not print its kubeconfig in time:\n${stderr.join("")}`));
    }, timeoutMs);
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on("line", (line) => {
      const m = /^kubeconfig: (.+)$/.exec(line);
      if (m?.[1] !== undefined) {
        clearTimeout(timer);
        resolveLine(m[1]);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`gantry up exited with ${code}:\n${stderr.join("")}`));
    });
  });
}

/**
 * The server URL, admin token and CA (PEM, if any) of a kubeconfig `gantry up` wrote. A
 * kubeconfig with a client certificate instead of a token (`--tls`) lives beside the `pki/`
 * folder that holds `admin.token`.
 */
export function readKubeconfig(path: string): {
  url: string;
  token: string;
  caPem: string | undefined;
} {
  const config: unknown = parseYaml(readFileSync(path, "utf8"));
  const field = (value: unknown, ...keys: (string | number)[]): unknown => {
    let current = value;
    for (const key of keys) {
      if (typeof current !== "object" || current === null) return undefined;
      current = (current as Record<string | number, unknown>)[key];
    }
    return current;
  };
  const url = field(config, "clusters", 0, "cluster", "server");
  const tokenPath = join(dirname(path), "pki", "admin.token");
  const token =
    field(config, "users", 0, "user", "token") ??
    (existsSync(tokenPath) ? readFileSync(tokenPath, "utf8").trim() : undefined);
  const caData = field(config, "clusters", 0, "cluster", "certificate-authority-data");
  if (typeof url !== "string" || typeof token !== "string") {
    throw new Error(`Cannot read the server and token of ${path}`);
  }
  return {
    url,
    token,
    caPem: typeof caData === "string" ? Buffer.from(caData, "base64").toString("utf8") : undefined,
  };
}

/** A `gantry scheduler|controller-manager|queueing|kubelet` child process. */
export interface ComponentProcess extends AsyncDisposable {
  readonly child: ChildProcess;
  /** What it wrote to stderr so far (its JSON log lines), most recent 2,000 lines. */
  logs(): string;
  /** Waits (at most `timeoutMs`, default 30000) until a log line matches `pattern`. */
  waitForLog(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Whether the process has exited. */
  exited(): boolean;
  /** Resolves with the exit code (null after a signal) once the process has exited. */
  readonly exit: Promise<number | null>;
  /** Stops the process with SIGTERM (or `signal`, such as SIGKILL) and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts `gantry <command> --kubeconfig KUBECONFIG ...args` (a component against a running API
 * server). Resolves once the process is spawned; wait for its readiness with `waitForLog` or
 * through the API. Disposing stops it (SIGTERM, then SIGKILL after 10 s). The scheduler,
 * controller-manager and queueing get `--secure-port 0` (no health and metrics listener, so
 * copies never fight over upstream's fixed ports) unless `args` give a `--secure-port`.
 */
export function startComponentProcess(
  command: "scheduler" | "controller-manager" | "queueing" | "kubelet",
  kubeconfig: string,
  args: readonly string[] = [],
): ComponentProcess {
  const serving =
    command === "kubelet" || args.some((arg) => arg.startsWith("--secure-port"))
      ? []
      : ["--secure-port", "0"];
  const child = spawn(
    process.execPath,
    [join(repoRoot, "bin", "gantry.js"), command, "--kubeconfig", kubeconfig, ...serving, ...args],
    { cwd: repoRoot, stdio: ["ignore", "ignore", "pipe"] },
  );
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  createInterface({ input: child.stderr as NodeJS.ReadableStream }).on("line", (line) => {
    lines.push(line);
    if (lines.length > 2000) lines.shift();
    for (const waiter of waiters.splice(0)) {
      if (waiter.pattern.test(line)) waiter.resolve(line);
      else waiters.push(waiter);
    }
  });
  const exit = new Promise<number | null>((resolveExit) =>
    child.once("exit", (code) => resolveExit(code)),
  );
  const hasExited = (): boolean => child.exitCode !== null || child.signalCode !== null;
  const stop = async (signal: NodeJS.Signals = "SIGTERM"): Promise<void> => {
    if (!hasExited()) child.kill(signal);
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exit;
    clearTimeout(timer);
  };
  return {
    child,
    logs: () => lines.join("\n"),
    waitForLog: (pattern, timeoutMs = 30_000) => {
      const seen = lines.find((line) => pattern.test(line));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise<string>((resolveLine, reject) => {
        const timer = setTimeout(() => {
          reject(
            new Error(
              `gantry ${command} logged no line matching ${pattern}:\n${lines.slice(-40).join("\n")}`,
            ),
          );
        }, timeoutMs);
        waiters.push({
          pattern,
          resolve: (line) => {
            clearTimeout(timer);
            resolveLine(line);
          },
        });
        void exit.then(() => {
          clearTimeout(timer);
          reject(
            new Error(
              `gantry ${command} exited before logging ${pattern}:\n${lines.slice(-40).join("\n")}`,
            ),
          );
        });
      });
    },
    exited: hasExited,
    exit,
    stop,
    [Symbol.asyncDispose]: () => stop(),
  };
}

export interface GantryResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/**
 * One request to a gantry (http or https) with node's own clients: `caPem` is the only CA
 * trusted for https, `token` is sent as a bearer token when given, and `cert` with `key` is
 * presented as the client certificate.
 */
export function requestGantry(
  url: string,
  options: {
    token?: string;
    caPem?: string;
    /** A PEM client certificate and its key. */
    cert?: string;
    key?: string;
    method?: string;
    body?: string;
    headers?: Record<string, string>;
    /** @default 10000 */
    timeoutMs?: number;
  } = {},
): Promise<GantryResponse> {
  const target = new URL(url);
  const headers: Record<string, string> = { Accept: "application/json", ...options.headers };
  if (options.token !== undefined) headers["Authorization"] = `Bearer ${options.token}`;
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolveResponse, reject) => {
    const req = send(
      target,
      {
        method: options.method ?? "GET",
        headers,
        timeout: options.timeoutMs ?? 10_000,
        ...(target.protocol === "https:" && options.caPem !== undefined
          ? { ca: options.caPem }
          : {}),
        ...(target.protocol === "https:" && options.cert !== undefined
          ? { cert: options.cert, key: options.key, agent: false }
          : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () =>
          resolveResponse({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    req.on("timeout", () => req.destroy(new Error(`No answer from ${url} in time`)));
    req.on("error", reject);
    req.end(options.body);
  });
}

export interface GantryRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `gantry <args>` to completion (for commands that exit, such as a refused `up`). */
export function runGantry(
  args: readonly string[],
  options: { timeoutMs?: number } = {},
): Promise<GantryRun> {
  return new Promise((resolveRun) => {
    execFile(
      process.execPath,
      [join(repoRoot, "bin", "gantry.js"), ...args],
      { cwd: repoRoot, timeout: options.timeoutMs ?? 30_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : null;
        resolveRun({ code, stdout, stderr });
      },
    );
  });
}

/** The directory holding kubectl and its versioned siblings (kubectl.1.27 …). */
export function kubectlDir(): string {
  return dirname(realpathSync(execPathOf("kubectl")));
}

function execPathOf(name: string): string {
  for (const dir of (process.env["PATH"] ?? "").split(":")) {
    try {
      return realpathSync(join(dir, name));
    } catch {
      // not in this directory
    }
  }
  throw new Error(`Cannot find ${name} on PATH: install kubectl to run the end-to-end tests`);
}

export interface KubectlResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Asserts that kubectl exited 0 (else fails with `what`, its exit code and output); its stdout. */
export function kubectlOk(result: KubectlResult, what: string): string {
  if (result.code !== 0) {
    assert.fail(`${what} failed (exit ${result.code}):\n${result.stderr}${result.stdout}`);
  }
  return result.stdout;
}

/** Runs a kubectl version (`1.27` … `1.33`, or "" for the default) against a gantry. */
export function kubectl(
  gantry: { kubeconfig: string; dataDir: string },
  version: string,
  args: readonly string[],
  options: { input?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<KubectlResult> {
  const binary = join(kubectlDir(), version === "" ? "kubectl" : `kubectl.${version}`);
  const cacheDir = join(gantry.dataDir, `kubectl-cache-${version || "default"}`);
  return new Promise((resolveRun) => {
    const child = execFile(
      binary,
      ["--kubeconfig", gantry.kubeconfig, "--cache-dir", cacheDir, ...args],
      {
        timeout: options.timeoutMs ?? 60_000,
        env: { ...process.env, KUBECONFIG: gantry.kubeconfig, ...options.env },
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
        resolveRun({ code, stdout, stderr });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
    else child.stdin?.end();
  });
}
