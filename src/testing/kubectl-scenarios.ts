/**
 * What the kubectl scenario files share: kubectl bound to one gantry and version, waits on pods
 * through kubectl, small manifests, and `gantry up` on a cluster config. Every wait is bounded.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import type { Pod, ReplicaSet } from "../api/index.ts";
import { eventually } from "./eventually.ts";
import { type GantryProcess, type KubectlResult, kubectl, startGantry } from "./gantry-process.ts";

/** The kubectl the scenarios use; `oldest` drives one scenario to cover the oldest client. */
export const current = "1.33";
export const oldest = "1.27";
/** How often a wait polls through kubectl. */
export const pollMs = 250;

export interface List<T> {
  readonly items: readonly T[];
}

/** kubectl bound to one gantry and one version. */
export interface Cli {
  readonly version: string;
  run(args: readonly string[], input?: string): Promise<KubectlResult>;
  /** Runs kubectl and asserts it succeeded; returns its stdout. */
  ok(args: readonly string[], input?: string): Promise<string>;
  /** `kubectl get ARGS -o json`, parsed. */
  get<T>(args: readonly string[]): Promise<T>;
  /** `kubectl apply -f -` of these objects. */
  apply(objects: readonly object[]): Promise<string>;
}

export function cliFor(gantry: () => GantryProcess, version: string): Cli {
  const run = (args: readonly string[], input?: string): Promise<KubectlResult> =>
    kubectl(gantry(), version, args, input === undefined ? {} : { input });
  const ok = async (args: readonly string[], input?: string): Promise<string> => {
    const result = await run(args, input);
    assert.equal(
      result.code,
      0,
      `kubectl ${version} ${args.join(" ")} failed (exit ${result.code}):\n${result.stderr}${result.stdout}`,
    );
    return result.stdout;
  };
  return {
    version,
    run,
    ok,
    get: async <T>(args: readonly string[]) =>
      JSON.parse(await ok(["get", ...args, "-o", "json"])) as T,
    apply: (objects) =>
      ok(["apply", "-f", "-"], objects.map((o) => `---\n${stringify(o)}`).join("")),
  };
}

/** The pods matching `selector` that are not being deleted. */
export async function livePods(cli: Cli, namespace: string, selector: string): Promise<Pod[]> {
  const pods = await cli.get<List<Pod>>(["pods", "-n", namespace, "-l", selector]);
  return pods.items.filter((p) => p.metadata.deletionTimestamp === undefined);
}

export function describePods(pods: readonly Pod[]): string {
  return pods
    .map(
      (p) =>
        `${p.metadata.name} ${p.status?.phase ?? "?"} on ${p.spec.nodeName ?? "-"} (${p.spec.containers.map((c) => c.image).join(",")})`,
    )
    .join("; ");
}

export function podCondition(pod: Pod, type: string) {
  return pod.status?.conditions?.find((c) => c.type === type);
}

/** Waits until exactly `count` live pods match, all Running and passing `check`; returns them. */
export function waitForRunning(
  cli: Cli,
  namespace: string,
  selector: string,
  count: number,
  check: (pods: Pod[]) => void = () => undefined,
  timeoutMs = 45_000,
): Promise<Pod[]> {
  return eventually(
    async () => {
      const pods = await livePods(cli, namespace, selector);
      const running = pods.filter((p) => p.status?.phase === "Running");
      assert.equal(running.length, count, `${count} Running pods: ${describePods(pods)}`);
      assert.equal(pods.length, count, `only ${count} live pods: ${describePods(pods)}`);
      check(pods);
      return pods;
    },
    timeoutMs,
    pollMs,
  );
}

/** Waits until the pod's PodScheduled condition says Unschedulable; returns its message. */
export function waitForUnschedulable(cli: Cli, namespace: string, name: string): Promise<string> {
  return eventually(
    async () => {
      const pod = await cli.get<Pod>(["pod", name, "-n", namespace]);
      const scheduled = podCondition(pod, "PodScheduled");
      assert.equal(
        scheduled?.status,
        "False",
        `${name}: PodScheduled=False, got ${JSON.stringify(pod.status)}`,
      );
      assert.equal(scheduled?.reason, "Unschedulable", `${name}: reason Unschedulable`);
      assert.equal(pod.status?.phase, "Pending", `${name} stays Pending`);
      assert.equal(pod.spec.nodeName, undefined, `${name} is not bound`);
      return scheduled?.message ?? "";
    },
    20_000,
    pollMs,
  );
}

/** Waits until the pod is Running; returns it. */
export function waitForPodRunning(cli: Cli, namespace: string, name: string): Promise<Pod> {
  return eventually(
    async () => {
      const pod = await cli.get<Pod>(["pod", name, "-n", namespace]);
      assert.equal(pod.status?.phase, "Running", `${name} Running, got ${describePods([pod])}`);
      return pod;
    },
    30_000,
    pollMs,
  );
}

export function pod(
  name: string,
  namespace: string,
  spec: Partial<Pod["spec"]> = {},
  annotations?: Record<string, string>,
): object {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name,
      namespace,
      labels: { scenario: name },
      ...(annotations === undefined ? {} : { annotations }),
    },
    spec: { containers: [{ name: "c", image: "nginx" }], ...spec },
  };
}

export function requiredNode(node: string): Partial<Pod["spec"]> {
  return {
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            {
              matchExpressions: [{ key: "kubernetes.io/hostname", operator: "In", values: [node] }],
            },
          ],
        },
      },
    },
  };
}

export const cpuRequest = (cpu: string) => [
  { name: "c", image: "nginx", resources: { requests: { cpu } } },
];

/** `"<revision> <image> <replicas>"` per ReplicaSet, sorted. */
export function revisions(sets: readonly ReplicaSet[]): string[] {
  return sets
    .map(
      (rs) =>
        `${rs.metadata.annotations?.["deployment.kubernetes.io/revision"] ?? "?"} ${rs.spec.template?.spec?.containers[0]?.image ?? "?"} ${rs.spec.replicas ?? "?"}`,
    )
    .sort();
}

/** `gantry up --config` on a cluster config written to a temporary directory. */
export async function startGantryWithConfig(
  config: Record<string, unknown>,
): Promise<GantryProcess> {
  const configDir = mkdtempSync(join(tmpdir(), "gantry-scenario-config-"));
  const file = join(configDir, "cluster.yaml");
  writeFileSync(
    file,
    stringify({ apiVersion: "gantry.dev/v1alpha1", kind: "ClusterConfig", ...config }),
  );
  const gantry = await startGantry({ extraArgs: ["--config", file] });
  const dispose = gantry[Symbol.asyncDispose].bind(gantry);
  return Object.assign(gantry, {
    async [Symbol.asyncDispose]() {
      await dispose();
      rmSync(configDir, { recursive: true, force: true });
    },
  });
}
