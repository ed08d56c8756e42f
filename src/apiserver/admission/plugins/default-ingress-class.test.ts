import assert from "node:assert/strict";
import { test } from "node:test";
import type { Ingress, IngressClass, KubeObject } from "../../../api/index.ts";
import type { JsonObject } from "../../../util/index.ts";
import type { AdmissionAttributes, ObjectReader } from "../admission.ts";
import { defaultIngressClass, newDefaultIngressClass } from "./default-ingress-class.ts";

const ingressClass = (name: string, created: string, isDefault?: string): IngressClass => ({
  metadata: {
    name,
    creationTimestamp: created,
    ...(isDefault === undefined
      ? {}
      : { annotations: { "ingressclass.kubernetes.io/is-default-class": isDefault } }),
  },
  spec: { controller: "k8s.io/ingress-nginx" },
});

function reader(classes: readonly IngressClass[]): ObjectReader & { lists: string[] } {
  const lists: string[] = [];
  return {
    lists,
    get: () => undefined,
    getFresh: async () => undefined,
    list: (segment) => {
      lists.push(segment);
      return classes as unknown as JsonObject[];
    },
  };
}

const attributes = (object: Ingress, overrides: Partial<AdmissionAttributes> = {}) =>
  ({
    operation: "CREATE",
    group: "networking.k8s.io",
    version: "v1",
    kind: "Ingress",
    resource: "ingresses",
    subresource: "",
    namespace: "default",
    name: "web",
    object: object as KubeObject,
    oldObject: undefined,
    dryRun: false,
    userInfo: { username: "u", groups: [] },
    ...overrides,
  }) satisfies AdmissionAttributes;

const ingress = (spec: Ingress["spec"] = {}, annotations?: Record<string, string>): Ingress => ({
  metadata: {
    name: "web",
    namespace: "default",
    ...(annotations === undefined ? {} : { annotations }),
  },
  spec,
});

const classes = [
  ingressClass("plain", "2024-01-01T00:00:00Z"),
  ingressClass("not-default", "2024-01-01T00:00:00Z", "false"),
  ingressClass("nginx", "2024-01-02T00:00:00Z", "true"),
];

const cases: {
  name: string;
  classes: IngressClass[];
  ingress: Ingress;
  want: string | undefined;
}[] = [
  {
    name: "an Ingress without a class gets the default one",
    classes,
    ingress: ingress(),
    want: "nginx",
  },
  {
    name: "an Ingress naming a class keeps it",
    classes,
    ingress: ingress({ ingressClassName: "traefik" }),
    want: "traefik",
  },
  {
    name: "the deprecated annotation counts as naming a class",
    classes,
    ingress: ingress({}, { "kubernetes.io/ingress.class": "traefik" }),
    want: undefined,
  },
  {
    name: "no class marked default: nothing is set",
    classes: classes.slice(0, 2),
    ingress: ingress(),
    want: undefined,
  },
  {
    name: "several defaults: the newest wins",
    classes: [...classes, ingressClass("newer", "2024-02-01T00:00:00Z", "true")],
    ingress: ingress(),
    want: "newer",
  },
  {
    name: "several defaults created together: the first by name wins",
    classes: [
      ingressClass("b", "2024-02-01T00:00:00Z", "true"),
      ingressClass("a", "2024-02-01T00:00:00Z", "true"),
    ],
    ingress: ingress(),
    want: "a",
  },
];

for (const c of cases) {
  test(`DefaultIngressClass.mutate: ${c.name}`, async () => {
    const plugin = newDefaultIngressClass(reader(c.classes));
    const a = attributes(c.ingress);
    assert.equal(plugin.handles(a), true, "an Ingress create is handled");
    const decision = await plugin.mutate?.(a);
    assert.deepEqual(decision, { allowed: true });
    assert.equal(c.ingress.spec?.ingressClassName, c.want);
  });
}

test("DefaultIngressClass.handles: only creates of ingresses themselves", () => {
  const plugin = newDefaultIngressClass(reader(classes));
  const a = attributes(ingress());
  assert.equal(plugin.handles({ ...a, operation: "UPDATE" }), false, "updates keep their class");
  assert.equal(plugin.handles({ ...a, subresource: "status" }), false, "status writes");
  assert.equal(
    plugin.handles({ ...a, group: "", resource: "services", kind: "Service" }),
    false,
    "other resources",
  );
});

test("defaultIngressClass: lists the classes the cache holds, by its segment", async () => {
  const r = reader(classes);
  await newDefaultIngressClass(r).mutate?.(attributes(ingress()));
  assert.deepEqual(r.lists, ["ingressclasses.networking.k8s.io"]);
  assert.equal(defaultIngressClass([]), undefined);
});
