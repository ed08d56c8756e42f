import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";

const repoRoot = resolve(import.meta.dirname, "..", "..");

/** A `gantry up` child process on a free loopback port, with its own data dir. */
export interface GantryProcess extends AsyncDisposable {
  readonly kubeconfig: string;
  readonly dataDir: string;
  readonly url: string;
  readonly child: ChildProcess;
  /** Stops the process with SIGTERM (or `signal`) and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface StartOptions {
  /** Reuse a data dir (for restart tests); a fresh temp dir otherwise. */
  readonly dataDir?: string;
  readonly storage?: "memory" | "sqlite";
  readonly extraArgs?: readonly string[];
  /** @default 30000 */
  readonly timeoutMs?: number;
}

/** Starts the real `gantry up` and waits for its kubeconfig line and a 200 from /readyz. */
export async function startGantry(options: StartOptions = {}): Promise<GantryProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "gantry-e2e-"));
  const owned = options.dataDir === undefined;
  const child = spawn(
    process.execPath,
    [
      join(repoRoot, "bin", "gantry.js"),
      "up",
      "--data-dir",
      dataDir,
      "--port",
      "0",
      "--storage",
      options.storage ?? "sqlite",
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
  const kubeconfig = await new Promise<string>((resolveLine, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`gantry up did not print its kubeconfig in time:\n${stderr.join("")}`));
    }, options.timeoutMs ?? 30_000);
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
  const url = await serverOf(kubeconfig);
  const readyz = await fetch(`${url}/readyz`);
  if (readyz.status !== 200) throw new Error(`/readyz answered ${readyz.status}`);
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
    child,
    stop,
    [Symbol.asyncDispose]: async () => {
      await stop();
      if (owned) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function serverOf(kubeconfig: string): Promise<string> {
  const { readFile } = await import("node:fs/promises");
  const text = await readFile(kubeconfig, "utf8");
  const m = /server: (\S+)/.exec(text);
  if (m?.[1] === undefined) throw new Error(`No server in ${kubeconfig}`);
  return m[1];
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
