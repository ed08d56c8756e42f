/**
 * Test support for bad-input.test.ts: valid fixture objects per kind, the routes discovery
 * lists, a keep-alive HTTP client, and seeded generators of requests every server must reject.
 */
import { type Agent, request } from "node:http";
import { parse as parseYaml } from "yaml";
import type { Random } from "../../util/index.ts";

/** One resource as discovery lists it (`pods`, `pods/status`, `deployments/scale`). */
export interface DiscoveredResource {
  /** `v1` or `apps/v1`. */
  readonly groupVersion: string;
  readonly resource: string;
  /** `status`, `scale`, …; empty for the resource itself. */
  readonly subresource: string;
  readonly namespaced: boolean;
  readonly kind: string;
  readonly verbs: readonly string[];
}

/** A request that every server must refuse with a 4xx Status. */
export interface BadRequest {
  /** What the request tries, for failure messages. */
  readonly what: string;
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: Buffer;
}

export interface HttpResult {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
}

/** Sends one request with an explicit Content-Length; rejects on a socket error or timeout. */
export function send(
  base: URL,
  agent: Agent,
  req: Pick<BadRequest, "method" | "path" | "headers" | "body">,
  timeoutMs = 10_000,
): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...req.headers };
    if (req.body !== undefined) headers["content-length"] = String(req.body.length);
    const outgoing = request(
      {
        host: base.hostname,
        port: base.port,
        method: req.method,
        path: req.path,
        headers,
        agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
        res.on("error", reject);
      },
    );
    outgoing.setTimeout(timeoutMs, () =>
      outgoing.destroy(new Error(`no complete answer within ${timeoutMs} ms`)),
    );
    outgoing.on("error", reject);
    outgoing.end(req.body);
  });
}

/** The namespace every namespaced fixture lives in. */
export const fuzzNamespace = "fuzz";
/** The name of the object each resource has, so item routes address something real. */
export const targetName = "target";

const container = { name: "app", image: "registry.k8s.io/pause:3.10" };
const podTemplate = {
  metadata: { labels: { app: "fuzz" } },
  spec: { containers: [container] },
};
const selector = { matchLabels: { app: "fuzz" } };

/** A valid body per `<groupVersion>/<resource>`, without name or namespace. */
export const fixtureBodies: Readonly<Record<string, Record<string, unknown>>> = {
  "v1/configmaps": { data: { mode: "fast", size: "3" } },
  "leaderworkerset.x-k8s.io/v1/leaderworkersets": {
    spec: {
      leaderWorkerTemplate: {
        workerTemplate: { spec: { containers: [{ name: "c", image: "nginx" }] } },
      },
    },
  },
  "kueue.x-k8s.io/v1beta1/resourceflavors": { spec: {} },
  "kueue.x-k8s.io/v1beta1/clusterqueues": { spec: { namespaceSelector: {} } },
  "kueue.x-k8s.io/v1beta1/localqueues": { spec: { clusterQueue: "cq" } },
  "kueue.x-k8s.io/v1beta1/workloads": {
    spec: {
      podSets: [
        {
          name: "main",
          count: 1,
          template: { spec: { containers: [{ name: "c", image: "nginx" }] } },
        },
      ],
    },
  },
  "kueue.x-k8s.io/v1beta1/workloadpriorityclasses": { value: 100 },
  "v1/endpoints": {
    subsets: [
      {
        addresses: [{ ip: "10.244.0.10", nodeName: "fuzz-node" }],
        ports: [{ name: "http", port: 8080, protocol: "TCP" }],
      },
    ],
  },
  "v1/events": {
    involvedObject: { kind: "Pod", name: "web", namespace: fuzzNamespace },
    reason: "Started",
    message: "Started container",
    type: "Normal",
    count: 1,
  },
  "v1/limitranges": {
    spec: { limits: [{ type: "Container", default: { cpu: "500m" }, max: { cpu: "2" } }] },
  },
  "v1/namespaces": { metadata: { labels: { team: "a" } } },
  "v1/nodes": {
    metadata: { labels: { zone: "a" } },
    spec: { unschedulable: false },
  },
  "v1/pods": {
    metadata: { labels: { app: "fuzz" } },
    spec: { containers: [{ ...container, ports: [{ containerPort: 8080 }] }] },
  },
  "v1/persistentvolumes": {
    spec: {
      capacity: { storage: "1Gi" },
      accessModes: ["ReadWriteOnce"],
      hostPath: { path: "/tmp/fuzz" },
    },
  },
  "v1/persistentvolumeclaims": {
    spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
  },
  "v1/podtemplates": { template: podTemplate },
  "v1/replicationcontrollers": {
    spec: { replicas: 1, selector: { app: "fuzz" }, template: podTemplate },
  },
  "v1/resourcequotas": { spec: { hard: { pods: "100", "requests.cpu": "100" } } },
  "v1/secrets": { type: "Opaque", data: { token: "c2VjcmV0" } },
  "v1/serviceaccounts": { automountServiceAccountToken: false },
  "v1/services": {
    spec: { selector: { app: "fuzz" }, ports: [{ port: 80, targetPort: 8080 }] },
  },
  "apps/v1/controllerrevisions": { data: { spec: { template: podTemplate } }, revision: 1 },
  "apps/v1/daemonsets": { spec: { selector, template: podTemplate } },
  "apps/v1/deployments": { spec: { replicas: 1, selector, template: podTemplate } },
  "apps/v1/replicasets": { spec: { replicas: 1, selector, template: podTemplate } },
  "apps/v1/statefulsets": {
    spec: { replicas: 1, serviceName: "fuzz", selector, template: podTemplate },
  },
  "batch/v1/jobs": {
    spec: {
      template: { ...podTemplate, spec: { ...podTemplate.spec, restartPolicy: "Never" } },
    },
  },
  "batch/v1/cronjobs": {
    spec: {
      schedule: "*/5 * * * *",
      jobTemplate: {
        spec: {
          template: { ...podTemplate, spec: { ...podTemplate.spec, restartPolicy: "Never" } },
        },
      },
    },
  },
  "policy/v1/poddisruptionbudgets": { spec: { minAvailable: 1, selector } },
  "scheduling.k8s.io/v1/priorityclasses": { value: 1000, description: "fuzz" },
  "discovery.k8s.io/v1/endpointslices": {
    metadata: { labels: { "kubernetes.io/service-name": "fuzz" } },
    addressType: "IPv4",
    endpoints: [{ addresses: ["10.244.0.10"], conditions: { ready: true }, nodeName: "fuzz-node" }],
    ports: [{ name: "http", port: 8080, protocol: "TCP" }],
  },
  "networking.k8s.io/v1/ingresses": {
    spec: {
      rules: [
        {
          host: "fuzz.example.com",
          http: {
            paths: [
              {
                path: "/",
                pathType: "Prefix",
                backend: { service: { name: "fuzz", port: { number: 8080 } } },
              },
            ],
          },
        },
      ],
    },
  },
  "networking.k8s.io/v1/ingressclasses": { spec: { controller: "example.com/fuzz" } },
  "networking.k8s.io/v1/networkpolicies": {
    spec: {
      podSelector: { matchLabels: { app: "fuzz" } },
      ingress: [{ from: [{ ipBlock: { cidr: "10.0.0.0/8", except: ["10.1.0.0/16"] } }] }],
      egress: [{ ports: [{ port: 53, protocol: "UDP" }] }],
    },
  },
  "storage.k8s.io/v1/storageclasses": {
    provisioner: "example.com/fuzz",
    parameters: { type: "fuzz" },
  },
  "coordination.k8s.io/v1/leases": { spec: { holderIdentity: "fuzz", leaseDurationSeconds: 15 } },
  "rbac.authorization.k8s.io/v1/roles": {
    rules: [{ apiGroups: [""], resources: ["pods"], verbs: ["get"] }],
  },
  "rbac.authorization.k8s.io/v1/clusterroles": {
    rules: [{ apiGroups: [""], resources: ["pods"], verbs: ["get"] }],
  },
  "rbac.authorization.k8s.io/v1/rolebindings": {
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "view" },
    subjects: [{ kind: "User", name: "fuzz" }],
  },
  "rbac.authorization.k8s.io/v1/clusterrolebindings": {
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "view" },
    subjects: [{ kind: "User", name: "fuzz" }],
  },
  "scheduling.k8s.io/v1alpha1/workloads": {
    spec: { podGroupTemplates: [{ name: "workers", policy: { gang: { minCount: 2 } } }] },
  },
  "scheduling.k8s.io/v1alpha1/podgroups": {
    spec: { workloadRef: { name: targetName }, podGroupTemplateName: "workers" },
  },
  "apiextensions.k8s.io/v1/customresourcedefinitions": {},
  "fuzz.example.com/v1/widgets": { spec: { size: 3, color: "blue" } },
};

/** A CRD whose custom resources the fuzz covers too (status and scale subresources). */
export function widgetCrd(): Record<string, unknown> {
  const schema = {
    type: "object",
    properties: {
      spec: {
        type: "object",
        properties: { size: { type: "integer" }, color: { type: "string" } },
      },
      status: { type: "object", properties: { size: { type: "integer" } } },
    },
  };
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "widgets.fuzz.example.com" },
    spec: {
      group: "fuzz.example.com",
      scope: "Namespaced",
      names: { plural: "widgets", singular: "widget", kind: "Widget", listKind: "WidgetList" },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: { openAPIV3Schema: schema },
          subresources: {
            status: {},
            scale: { specReplicasPath: ".spec.size", statusReplicasPath: ".status.size" },
          },
        },
      ],
    },
  };
}

/** `/api/v1` or `/apis/apps/v1`. */
export function groupVersionPath(groupVersion: string): string {
  return groupVersion.includes("/") ? `/apis/${groupVersion}` : `/api/${groupVersion}`;
}

/** The collection path of a resource, in the fuzz namespace when it is namespaced. */
export function collectionPath(r: DiscoveredResource): string {
  const ns = r.namespaced ? `/namespaces/${fuzzNamespace}` : "";
  return `${groupVersionPath(r.groupVersion)}${ns}/${r.resource}`;
}

/** The path of the target object, or of its subresource. */
export function itemPath(r: DiscoveredResource, name = targetName): string {
  return `${collectionPath(r)}/${name}${r.subresource === "" ? "" : `/${r.subresource}`}`;
}

const jsonHeaders = { "content-type": "application/json", accept: "application/json" };

function pick<T>(random: Random, items: readonly T[]): T {
  const item = items[random.int(items.length)];
  if (item === undefined) throw new RangeError("Cannot pick from an empty list");
  return item;
}

function randomBytes(random: Random, length: number): Buffer {
  return Buffer.from(Array.from({ length }, () => random.int(256)));
}

/** Random bytes that are certainly not JSON. */
export function notJson(random: Random): Buffer {
  for (;;) {
    const bytes = randomBytes(random, 1 + random.int(200));
    try {
      JSON.parse(bytes.toString("utf8"));
    } catch (error: unknown) {
      if (error instanceof SyntaxError) return bytes;
      throw error;
    }
  }
}

/** Text that the YAML parser rejects: random lines around an unterminated flow collection. */
export function notYaml(random: Random): Buffer {
  const alphabet = "abc: -[]{},'\"\t\n#&*!|>%@`";
  for (;;) {
    const text = Array.from({ length: 5 + random.int(60) }, () => pick(random, [...alphabet])).join(
      "",
    );
    const candidate = `${text}\nkey: [unterminated, ${text}`;
    try {
      parseYaml(candidate, { uniqueKeys: true });
    } catch (error: unknown) {
      if (error instanceof Error) return Buffer.from(candidate);
      throw error;
    }
  }
}

/** A JSON text cut short: a proper prefix of an object is never valid JSON. */
export function truncated(random: Random, value: unknown): Buffer {
  const text = JSON.stringify(value);
  return Buffer.from(text.slice(0, 1 + random.int(text.length - 1)));
}

/** A value of another JSON type than `value`, which no typed decoder accepts in its place. */
export function wrongTypeFor(random: Random, value: unknown): unknown {
  if (typeof value === "string" || typeof value === "number") {
    return pick(random, [{ nested: "object" }, ["a", "list"], true]);
  }
  if (typeof value === "boolean") return pick(random, ["yes", { b: 1 }, [true]]);
  if (Array.isArray(value)) return pick(random, ["a string", { an: "object" }, 7]);
  return pick(random, ["a string", ["a", "list"], 42, false]);
}

/** Every path (as keys) to a value inside `value`, descending through objects and lists. */
export function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const paths: (string | number)[][] = [];
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      paths.push([...prefix, i], ...pathsOf(item, [...prefix, i]));
    });
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      paths.push([...prefix, key], ...pathsOf(item, [...prefix, key]));
    }
  }
  return paths;
}

/** A deep copy of `value` with the value at `path` replaced. */
export function withValueAt(value: unknown, path: readonly (string | number)[], next: unknown) {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let current: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) current = current[key] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (last !== undefined) current[last] = next;
  return copy;
}

/** `{"a":{"a":…}}` or `[[…]]`, `depth` levels deep. */
export function deeplyNested(depth: number, list: boolean): string {
  return list
    ? `${"[".repeat(depth)}${"]".repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}

export const badNames = [
  "Bad_Name",
  "-leading-dash",
  "trailing-dash-",
  "UPPER",
  "has space",
  "a".repeat(254),
  "dots..double",
  "ünïcode",
];

/** Names that even path-segment validation (RBAC's) rejects: `.`, `..`, or with `/` or `%`. */
export const badPathSegments = [".", "..", "a/b", "50%"];

export const badLabelSelectors = [
  "a in (b",
  "a=b=c",
  "!",
  "a notin b",
  "in (x)",
  "a,,b",
  `${"x".repeat(64)}=v`,
  "a=b c",
];

export const badFieldSelectors = ["bogus.field=x", "metadata.name", "=x", "spec.nodeName~x"];

export const unsupportedContentTypes = [
  "text/plain",
  "application/xml",
  "application/x-www-form-urlencoded",
  "image/png",
  "application/cbor",
  "multipart/form-data; boundary=x",
];

export const patchTypes = [
  "application/json-patch+json",
  "application/merge-patch+json",
  "application/strategic-merge-patch+json",
  "application/apply-patch+yaml",
];

/** 3 MiB and a little more: over upstream's request body limit. */
export function oversized(random: Random): Buffer {
  const size = 3 * 1024 * 1024 + 1 + random.int(64 * 1024);
  const body = Buffer.alloc(size, 0x20);
  body.write('{"metadata":{"name":"big"},"data":{"blob":"', 0);
  return body;
}

export { jsonHeaders, pick, randomBytes };
