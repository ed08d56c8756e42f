import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { type Browser, chromium, type Page } from "playwright-core";
import { stringify } from "yaml";
import { type GantryProcess, kubectl, startGantry } from "../../testing/index.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";

// The dashboard in real headless Chromium against a real `gantry up`: one gantry and one browser
// for the whole file. Screenshots of each view go to test-output/dashboard/.

const repoRoot = resolve(import.meta.dirname, "..", "..", "..");
const bundleDir = join(repoRoot, "dist", "ui");
const shots = join(repoRoot, "test-output", "dashboard");

/** The newest modification time under `dir` (ms). */
function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/** Builds dist/ui with Vite's API when it is missing or older than its sources. */
async function ensureBundle(): Promise<void> {
  let built = 0;
  try {
    built = statSync(join(bundleDir, "index.html")).mtimeMs;
  } catch (error: unknown) {
    if ((error as { code?: unknown }).code !== "ENOENT") throw error;
  }
  const sources = Math.max(
    newest(join(repoRoot, "src", "dashboard")),
    newest(join(repoRoot, "src", "api")),
  );
  if (built >= sources) return;
  process.stderr.write(
    `dashboard e2e: dist/ui is ${built === 0 ? "missing" : "older than src/dashboard or src/api"}: building it (npm run build:ui)\n`,
  );
  const { build } = await import("vite");
  await build({
    configFile: join(repoRoot, "src", "dashboard", "vite.config.ts"),
    logLevel: "warn",
  });
}

const clusterConfig = `apiVersion: gantry.dev/v1alpha1
kind: ClusterConfig
nodePools:
- name: node
  count: 2
  namePrefix: node-
  topology: split-l3-2s-16c-smt2
  capacity: {memory: 64Gi}
  kubelet:
    cpuManagerPolicy: static
    cpuManagerPolicyOptions: {prefer-align-cpus-by-uncorecache: "true"}
    reservedSystemCPUs: "0,32"
`;

const pod = (name: string, spec: object, labels: object = {}, annotations: object = {}) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name, namespace: "default", labels, annotations },
  spec,
});
const container = (requests: object) => [{ name: "c", image: "busybox", resources: { requests } }];

const objects = [
  {
    apiVersion: "scheduling.k8s.io/v1alpha1",
    kind: "Workload",
    metadata: { name: "train", namespace: "default" },
    spec: {
      podGroupTemplates: [
        { name: "workers", policy: { gang: { minCount: 2 } } },
        { name: "big", policy: { gang: { minCount: 3 } } },
      ],
    },
  },
  ...[
    ["train-0", "workers"],
    ["train-1", "workers"],
    ["train-big", "big"],
  ].map(([name, template]) => ({
    apiVersion: "scheduling.k8s.io/v1alpha1",
    kind: "PodGroup",
    metadata: { name, namespace: "default" },
    spec: { workloadRef: { name: "train" }, podGroupTemplateName: template },
  })),
  ...["a", "b"].map((s) =>
    pod(
      `train-0-${s}`,
      {
        nodeName: "node-0",
        workloadRef: { name: "train", podGroupName: "train-0" },
        containers: container({ cpu: "500m" }),
      },
      { app: "train" },
    ),
  ),
  ...["a", "b"].map((s) =>
    pod(`train-1-${s}`, {
      workloadRef: { name: "train", podGroupName: "train-1" },
      containers: container({ cpu: "100" }),
    }),
  ),
  pod("train-big-a", {
    workloadRef: { name: "train", podGroupName: "train-big" },
    containers: container({ cpu: "500m" }),
  }),
  {
    apiVersion: "policy/v1",
    kind: "PodDisruptionBudget",
    metadata: { name: "train-pdb", namespace: "default" },
    spec: { selector: { matchLabels: { app: "train" } }, maxUnavailable: 1, usePodGroups: true },
  },
  {
    apiVersion: "kueue.x-k8s.io/v1beta1",
    kind: "ResourceFlavor",
    metadata: { name: "default-flavor" },
  },
  {
    apiVersion: "kueue.x-k8s.io/v1beta1",
    kind: "ClusterQueue",
    metadata: { name: "team-a" },
    spec: {
      cohort: "research",
      namespaceSelector: {},
      resourceGroups: [
        {
          coveredResources: ["cpu", "memory"],
          flavors: [
            {
              name: "default-flavor",
              resources: [
                { name: "cpu", nominalQuota: 2 },
                { name: "memory", nominalQuota: "8Gi" },
              ],
            },
          ],
        },
      ],
    },
  },
  {
    apiVersion: "kueue.x-k8s.io/v1beta1",
    kind: "LocalQueue",
    metadata: { name: "team-a-queue", namespace: "default" },
    spec: { clusterQueue: "team-a" },
  },
  ...[0, 1].map((i) =>
    pod(
      `batch-${i}`,
      { containers: container({ cpu: "2" }) },
      { "kueue.x-k8s.io/queue-name": "team-a-queue", "kueue.x-k8s.io/pod-group-name": "batch" },
      { "kueue.x-k8s.io/pod-group-total-count": "2" },
    ),
  ),
];

const pinned = pod("pinned", {
  nodeName: "node-1",
  containers: [
    { name: "app", image: "busybox", resources: { limits: { cpu: "4", memory: "1Gi" } } },
  ],
});

describe("dashboard in Chromium against gantry up", { concurrency: 1, timeout: 120_000 }, () => {
  let gantry: GantryProcess;
  let browser: Browser;
  let page: Page;
  let dir: string;
  const pageErrors: string[] = [];
  const foreignRequests: string[] = [];
  const apply = async (list: readonly object[]) => {
    const got = await kubectl(gantry, "", ["apply", "-f", "-"], {
      input: list.map((o) => `---\n${stringify(o)}`).join(""),
    });
    assert.equal(got.code, 0, got.stderr);
  };
  const open = async (path: string) => {
    await page.goto(`${gantry.url}/ui/${path}`);
  };
  const shoot = (name: string) =>
    page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  /** Waits (at most `timeout` ms) until the page shows `text`. */
  const shows = (text: string | RegExp, timeout = 10_000) =>
    page.getByText(text).first().waitFor({ state: "visible", timeout });

  before(async () => {
    await ensureBundle();
    mkdirSync(shots, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), "gantry-dashboard-e2e-"));
    writeFileSync(join(dir, "cluster.yaml"), clusterConfig);
    gantry = await startGantry({
      storage: "memory",
      extraArgs: ["--config", join(dir, "cluster.yaml")],
    });
    await apply(objects);
    browser = await chromium.launch({
      executablePath: "/usr/bin/chromium",
      args: ["--no-sandbox"],
    });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on("pageerror", (error) => pageErrors.push(error.message));
    page.on("request", (request) => {
      if (!request.url().startsWith(gantry.url)) foreignRequests.push(request.url());
    });
  });

  after(async () => {
    await browser?.close();
    await gantry?.[Symbol.asyncDispose]();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });
  ensureNoLeaksAfterSuite();

  test("Dashboard cluster view: lists the nodes with usage and shows a cordon as it happens", async () => {
    await open("");
    await page.getByRole("link", { name: "node-1" }).waitFor({ timeout: 10_000 });
    await shows("node-0");
    const cordon = await kubectl(gantry, "", ["cordon", "node-0"]);
    assert.equal(cordon.code, 0, cordon.stderr);
    await shows("SchedulingDisabled");
    await shoot("cluster");
    await kubectl(gantry, "", ["uncordon", "node-0"]);
  });

  test("Dashboard topology view: nested boxes for node-1, and a pod pinned there appears within 2 s", async () => {
    await open("topology/node-1");
    await shows("L3 #3");
    await shows(/0 pinned, 62 in the shared pool/);
    await apply([pinned]);
    // The bound: the pinned container must be drawn within 2 s of kubectl apply returning.
    await page.getByText("default/pinned").first().waitFor({ state: "visible", timeout: 2_000 });
    await shows("one L3");
    const cpus = page.locator("button.cpu-pinned");
    assert.equal(await cpus.count(), 4, "four CPUs carry the container's colour and tag");
    await cpus.first().focus();
    await shows(/pinned to pod default\/pinned, container app \(A\)/);
    await page.keyboard.press("Home");
    await shows(/CPU 0: socket 0, NUMA node 0, L3 0, core 0; reserved/);
    await shoot("topology");
  });

  test("Dashboard gangs view: Workload, PodGroups, minCount and the members still missing", async () => {
    await open("gangs");
    await shows("Workload default/train");
    await shows("train-big");
    await shows(/waiting for pods: 1 of minCount 3/);
    // train-1 asks for more CPU than any node has: the scheduler says so on its PodGroup.
    await shows("Unschedulable");
    await shows(/Insufficient cpu/);
    await shoot("gangs");
  });

  test("Dashboard disruption view: the group budget and node-0's drain plan", async () => {
    await open("disruption");
    await shows("default/train-pdb");
    await shows("maxUnavailable: 1");
    await page.getByLabel("Node to drain").selectOption("node-0");
    await page
      .getByRole("cell", { name: /breaks group podgroup\/train-0/ })
      .first()
      .waitFor({ timeout: 10_000 });
    assert.match(page.url(), /\/ui\/disruption\/node-0$/);
    await shoot("disruption");
  });

  test("Dashboard queues view: quota, cohort, the pending workload and the gated pods of the group", async () => {
    await open("queues");
    await shows("cohort: research");
    await shows(/batch-0, batch-1/);
    await shows(/insufficient quota for cpu/);
    await shoot("queues");
  });

  test("Dashboard navigation: the keyboard reaches every view from the navigation", async () => {
    await open("cluster");
    await page.getByRole("link", { name: "node-0" }).waitFor({ timeout: 10_000 });
    for (const [name, path] of [
      ["CPU topology", "topology"],
      ["Gangs", "gangs"],
      ["Disruption", "disruption"],
      ["Queues", "queues"],
      ["Cluster", "cluster"],
    ] as const) {
      // Tab from the brand line, as a user who clicked the banner would.
      await page.locator(".brand").click();
      let focused = "";
      for (let presses = 0; presses < 12 && focused !== name; presses++) {
        await page.keyboard.press("Tab");
        focused = String(await page.evaluate("document.activeElement?.textContent?.trim()"));
      }
      assert.equal(focused, name, `Tab reaches the ${name} link`);
      await page.keyboard.press("Enter");
      await page.waitForURL(`**/ui/${path}`, { timeout: 5_000 });
      await page.locator("h2#view-title:focus").waitFor({ timeout: 5_000 });
    }
  });

  test("Dashboard page: no script errors and no request leaves the gantry server", () => {
    assert.deepEqual(pageErrors, []);
    assert.deepEqual(foreignRequests, []);
  });
});
