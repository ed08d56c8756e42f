// Records the protobuf request bodies real kubectl binaries send, as fixtures for decode.test.ts.
//
// Usage (from the repo root; pass one or more kubectl binaries, 1.32 or later):
//
//   K=$(dirname "$(readlink -f "$(command -v kubectl)")")
//   node --import tsx src/apiserver/protobuf/testdata/capture.ts "$K/kubectl.1.32" "$K/kubectl.1.33"
//
// For each case below and each binary it
//   1. starts a throwaway HTTP server on 127.0.0.1 that answers /version, legacy discovery and the
//      GETs a case needs (`served/*.json`: what `create job --from` and `autoscale` read);
//   2. runs `kubectl … --dry-run=client -o json` against it and saves the output as
//      `<case>.<version>.json`: the same object in JSON, which is the oracle the decoder must match;
//   3. runs the same command for real and saves the body of its POST as `<case>.<version>.pb`.
//      The server answers the POST with a 201 carrying the oracle JSON, so kubectl exits cleanly.
// `fixtures.json` lists every fixture with the kubectl version and arguments that produced it.
// Cases without a client-side dry run (`create token`) get a hand-written `<case>.expected.json`.
//
// This is a developer tool: it is not run by `npm test`, and the tests only read its output.

import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

interface CaptureCase {
  /** Fixture base name. */
  readonly name: string;
  /** Arguments after `kubectl`; `{dir}` is replaced by a scratch directory holding `files`. */
  readonly args: readonly string[];
  /** Whether `--dry-run=client -o json` is available to produce the oracle. */
  readonly dryRun: boolean;
  /** The JSON reply for the POST when there is no dry run. */
  readonly reply?: Record<string, unknown>;
  /** GET paths the command reads first, answered with files from `served/`. */
  readonly serve?: Readonly<Record<string, string>>;
}

export const captureCases: readonly CaptureCase[] = [
  {
    name: "configmap",
    args: [
      "create",
      "configmap",
      "cm1",
      "--from-literal=a=1",
      "--from-literal=empty=",
      "--from-file={dir}/config.txt",
      "--from-file=blob={dir}/blob.bin",
    ],
    dryRun: true,
  },
  {
    name: "secret-generic",
    args: ["create", "secret", "generic", "s1", "--from-literal=pw=x", "--type=Opaque"],
    dryRun: true,
  },
  {
    name: "secret-docker-registry",
    args: [
      "create",
      "secret",
      "docker-registry",
      "reg1",
      "--docker-server=registry.example.com",
      "--docker-username=u",
      "--docker-password=p",
    ],
    dryRun: true,
  },
  { name: "namespace", args: ["create", "namespace", "n1"], dryRun: true },
  {
    name: "deployment",
    args: ["create", "deployment", "web", "--image=nginx", "--replicas=3", "--port=80"],
    dryRun: true,
  },
  {
    name: "deployment-two-images",
    args: ["create", "deployment", "multi", "--image=nginx", "--image=redis:7", "-n", "team-a"],
    dryRun: true,
  },
  {
    name: "deployment-command",
    args: ["create", "deployment", "cmd", "--image=busybox", "--", "sleep", "3600"],
    dryRun: true,
  },
  {
    name: "job",
    args: ["create", "job", "j1", "--image=busybox", "--", "echo", "hi"],
    dryRun: true,
  },
  {
    name: "cronjob",
    args: [
      "create",
      "cronjob",
      "cj1",
      "--image=busybox",
      "--schedule=*/5 * * * *",
      "--restart=Never",
      "--",
      "date",
    ],
    dryRun: true,
  },
  {
    name: "service-clusterip",
    args: ["create", "service", "clusterip", "svc1", "--tcp=80:8080", "--tcp=443"],
    dryRun: true,
  },
  {
    name: "service-headless",
    args: ["create", "service", "clusterip", "headless", "--clusterip=None"],
    dryRun: true,
  },
  {
    name: "service-nodeport",
    args: ["create", "service", "nodeport", "np1", "--tcp=80:http", "--node-port=30080"],
    dryRun: true,
  },
  {
    name: "service-loadbalancer",
    args: ["create", "service", "loadbalancer", "lb1", "--tcp=5678:8080"],
    dryRun: true,
  },
  {
    name: "service-externalname",
    args: ["create", "service", "externalname", "ext1", "--external-name=example.com"],
    dryRun: true,
  },
  { name: "serviceaccount", args: ["create", "serviceaccount", "sa1"], dryRun: true },
  {
    name: "priorityclass",
    args: [
      "create",
      "priorityclass",
      "high",
      "--value=1000",
      "--description=important pods",
      "--preemption-policy=Never",
    ],
    dryRun: true,
  },
  {
    name: "priorityclass-default",
    args: ["create", "priorityclass", "base", "--value=-5", "--global-default=true"],
    dryRun: true,
  },
  {
    name: "poddisruptionbudget",
    args: ["create", "poddisruptionbudget", "pdb1", "--selector=app=web", "--min-available=1"],
    dryRun: true,
  },
  {
    name: "poddisruptionbudget-percent",
    args: ["create", "pdb", "pdb2", "--selector=app in (a,b),!canary", "--max-unavailable=50%"],
    dryRun: true,
  },
  {
    name: "quota",
    args: [
      "create",
      "quota",
      "q1",
      "--hard=cpu=1500m,memory=1Gi,pods=2,requests.storage=10G",
      "--scopes=NotBestEffort",
    ],
    dryRun: true,
  },
  {
    name: "role",
    args: [
      "create",
      "role",
      "r1",
      "--verb=get,list",
      "--resource=pods,deployments.apps",
      "--resource-name=web",
    ],
    dryRun: true,
  },
  {
    name: "clusterrole",
    args: ["create", "clusterrole", "cr1", "--verb=get", "--non-resource-url=/logs/*"],
    dryRun: true,
  },
  {
    name: "clusterrole-aggregated",
    args: ["create", "clusterrole", "agg", "--aggregation-rule=rbac.example.com/aggregate=true"],
    dryRun: true,
  },
  {
    name: "rolebinding",
    args: [
      "create",
      "rolebinding",
      "rb1",
      "--role=r1",
      "--user=alice",
      "--group=devs",
      "--serviceaccount=default:sa1",
    ],
    dryRun: true,
  },
  {
    name: "clusterrolebinding",
    args: ["create", "clusterrolebinding", "crb1", "--clusterrole=cr1", "--user=bob"],
    dryRun: true,
  },
  {
    name: "ingress",
    args: [
      "create",
      "ingress",
      "web",
      "--class=nginx",
      "--rule=foo.com/=svc1:80",
      "--rule=foo.com/admin/*=svc2:http,tls=my-cert",
      "--default-backend=defsvc:8080",
      "--annotation=a=b",
    ],
    dryRun: true,
  },
  {
    name: "job-from-cronjob",
    args: ["create", "job", "manual-1", "--from=cronjob/nightly"],
    dryRun: true,
    serve: { "/apis/batch/v1/namespaces/default/cronjobs/nightly": "cronjob-rich.json" },
  },
  {
    name: "autoscale",
    args: ["autoscale", "deployment", "web", "--min=2", "--max=5", "--cpu-percent=80"],
    dryRun: true,
    serve: { "/apis/apps/v1/namespaces/default/deployments/web": "deployment-web.json" },
  },
  {
    name: "token",
    args: [
      "create",
      "token",
      "sa1",
      "--audience=api",
      "--audience=vault",
      "--duration=1h",
      "--bound-object-kind=Pod",
      "--bound-object-name=p1",
      "--bound-object-uid=0a1b",
    ],
    dryRun: false,
    reply: {
      kind: "TokenRequest",
      apiVersion: "authentication.k8s.io/v1",
      metadata: { name: "sa1", namespace: "default" },
      spec: { audiences: ["api", "vault"], expirationSeconds: 3600 },
      status: { token: "fake-token", expirationTimestamp: "2030-01-01T00:00:00Z" },
    },
  },
];

const coreResources = [
  ["configmaps", "ConfigMap", true],
  ["secrets", "Secret", true],
  ["namespaces", "Namespace", false],
  ["services", "Service", true],
  ["serviceaccounts", "ServiceAccount", true],
  ["serviceaccounts/token", "TokenRequest", true],
  ["resourcequotas", "ResourceQuota", true],
  ["pods", "Pod", true],
] as const;

const groups = [
  [
    "apps",
    "v1",
    [
      ["deployments", "Deployment", true],
      ["deployments/scale", "Scale", true],
    ],
  ],
  [
    "batch",
    "v1",
    [
      ["jobs", "Job", true],
      ["cronjobs", "CronJob", true],
    ],
  ],
  ["policy", "v1", [["poddisruptionbudgets", "PodDisruptionBudget", true]]],
  ["scheduling.k8s.io", "v1", [["priorityclasses", "PriorityClass", false]]],
  [
    "rbac.authorization.k8s.io",
    "v1",
    [
      ["roles", "Role", true],
      ["clusterroles", "ClusterRole", false],
      ["rolebindings", "RoleBinding", true],
      ["clusterrolebindings", "ClusterRoleBinding", false],
    ],
  ],
  ["networking.k8s.io", "v1", [["ingresses", "Ingress", true]]],
  ["autoscaling", "v2", [["horizontalpodautoscalers", "HorizontalPodAutoscaler", true]]],
  ["autoscaling", "v1", [["horizontalpodautoscalers", "HorizontalPodAutoscaler", true]]],
] as const;

function resourceList(
  groupVersion: string,
  resources: readonly (readonly [string, string, boolean])[],
): unknown {
  return {
    kind: "APIResourceList",
    apiVersion: "v1",
    groupVersion,
    resources: resources.map(([name, kind, namespaced]) => ({
      name,
      singularName: "",
      namespaced,
      kind,
      verbs: name.includes("/") ? ["create"] : ["create", "delete", "get", "list", "patch"],
    })),
  };
}

interface Recorded {
  url: string;
  contentType: string;
  body: Buffer;
}

function reply(res: ServerResponse, code: number, body: unknown): void {
  res.writeHead(code, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function handler(
  postReply: { readonly oracle: unknown },
  posts: Recorded[],
  served: ReadonlyMap<string, unknown>,
) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const body = await readBody(req);
    if (req.method === "POST") {
      posts.push({ url: req.url ?? "", contentType: req.headers["content-type"] ?? "", body });
      reply(res, 201, postReply.oracle);
      return;
    }
    const canned = served.get(path);
    if (req.method === "GET" && canned !== undefined) {
      reply(res, 200, canned);
      return;
    }
    if (path === "/version") {
      reply(res, 200, { major: "1", minor: "33", gitVersion: "v1.33.0", platform: "linux/amd64" });
      return;
    }
    if (path === "/api") {
      reply(res, 200, { kind: "APIVersions", versions: ["v1"], serverAddressByClientCIDRs: [] });
      return;
    }
    if (path === "/api/v1") {
      reply(res, 200, resourceList("v1", coreResources));
      return;
    }
    if (path === "/apis") {
      reply(res, 200, {
        kind: "APIGroupList",
        apiVersion: "v1",
        groups: [...new Set(groups.map(([name]) => name))].map((name) => {
          const versions = groups
            .filter(([group]) => group === name)
            .map(([, version]) => ({ groupVersion: `${name}/${version}`, version }));
          return { name, versions, preferredVersion: versions[0] };
        }),
      });
      return;
    }
    for (const [name, version, resources] of groups) {
      if (path === `/apis/${name}/${version}`) {
        reply(res, 200, resourceList(`${name}/${version}`, resources));
        return;
      }
    }
    reply(res, 404, {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: "the server could not find the requested resource",
      reason: "NotFound",
      code: 404,
    });
  };
}

function run(
  bin: string,
  args: readonly string[],
): Promise<{ stdout: string; stderr: string; ok: boolean }> {
  return new Promise((resolve) => {
    execFile(bin, [...args], { timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ stdout, stderr, ok: error === null });
    });
  });
}

async function kubectlVersion(bin: string): Promise<string> {
  const out = await run(bin, ["version", "--client", "-o", "json"]);
  const parsed = JSON.parse(out.stdout) as { clientVersion: { gitVersion: string } };
  return parsed.clientVersion.gitVersion;
}

async function loadServed(c: CaptureCase): Promise<Map<string, unknown>> {
  const served = new Map<string, unknown>();
  const dir = fileURLToPath(new URL("served/", import.meta.url));
  for (const [path, file] of Object.entries(c.serve ?? {})) {
    served.set(path, JSON.parse(await readFile(join(dir, file), "utf8")));
  }
  return served;
}

async function captureOne(
  bin: string,
  scratch: string,
  c: CaptureCase,
): Promise<{ oracle: unknown; post: Recorded }> {
  const args = c.args.map((a) => a.replaceAll("{dir}", scratch));
  const posts: Recorded[] = [];
  const state: { oracle: unknown } = { oracle: c.reply };
  const serve = handler(state, posts, await loadServed(c));
  const server = createServer((req, res) => {
    serve(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const kubeconfig = join(scratch, "kubeconfig");
    await writeFile(
      kubeconfig,
      [
        "apiVersion: v1",
        "kind: Config",
        "clusters:",
        `- name: c\n  cluster: {server: "http://127.0.0.1:${port}"}`,
        "users:",
        "- name: u\n  user: {}",
        "contexts:",
        "- name: c\n  context: {cluster: c, user: u, namespace: default}",
        "current-context: c",
        "",
      ].join("\n"),
    );
    const common = ["--kubeconfig", kubeconfig, "--cache-dir", join(scratch, "cache")];
    if (c.dryRun) {
      const dash = args.indexOf("--");
      const at = dash === -1 ? args.length : dash;
      const dryArgs = [...args.slice(0, at), "--dry-run=client", "-o", "json", ...args.slice(at)];
      const dry = await run(bin, [...common, ...dryArgs]);
      if (!dry.ok) throw new Error(`Cannot dry-run ${c.name}: ${dry.stderr}`);
      state.oracle = JSON.parse(dry.stdout);
    }
    const live = await run(bin, [...common, ...args]);
    const post = posts[0];
    if (!live.ok || post === undefined) {
      throw new Error(`Cannot capture ${c.name}: ${live.stderr}`);
    }
    return { oracle: state.oracle, post };
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

async function main(binaries: readonly string[]): Promise<void> {
  const out = fileURLToPath(new URL(".", import.meta.url));
  const scratch = await mkdtemp(join(tmpdir(), "gantry-capture-"));
  const index: unknown[] = [];
  try {
    await writeFile(join(scratch, "config.txt"), "key=value\nline two\n");
    await writeFile(join(scratch, "blob.bin"), Buffer.from([0x00, 0xff, 0xfe, 0x80, 0x41]));
    for (const bin of binaries) {
      const version = await kubectlVersion(bin);
      const minor = /^v(\d+\.\d+)/.exec(version)?.[1] ?? version;
      for (const c of captureCases) {
        const { oracle, post } = await captureOne(bin, scratch, c);
        const base = `${c.name}.v${minor}`;
        await writeFile(join(out, `${base}.pb`), post.body);
        if (c.dryRun)
          await writeFile(join(out, `${base}.json`), `${JSON.stringify(oracle, null, 2)}\n`);
        index.push({
          fixture: base,
          kubectl: version,
          args: c.args,
          url: post.url,
          contentType: post.contentType,
          oracle: c.dryRun ? `${base}.json` : `${c.name}.expected.json`,
        });
      }
    }
    await writeFile(join(out, "fixtures.json"), `${JSON.stringify(index, null, 2)}\n`);
    const written = await readFile(join(out, "fixtures.json"), "utf8");
    process.stdout.write(`wrote ${(JSON.parse(written) as unknown[]).length} fixtures to ${out}\n`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await main(process.argv.slice(2));
}
