import assert from "node:assert/strict";
import { test } from "node:test";
import { builtInKinds, defaultTolerations, qosClassOf } from "../../api/index.ts";
import { newMemoryStorage } from "../../storage/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { discardLogger, seededRandom, systemClock } from "../../util/index.ts";
import { ApiServer } from "../api-server.ts";
import { newAnonymousAuthenticator } from "../authn.ts";
import { type AdmissionPlugin, admit } from "./admission.ts";
import { admissionPluginOrder, orderAdmissionPlugins } from "./order.ts";
import { newGangAdmission } from "./plugins/gang-admission.ts";

ensureNoLeaksInEachTest();

const named = (name: string): AdmissionPlugin => ({
  name,
  handles: () => true,
  validate: () => admit,
});

test("orderAdmissionPlugins: upstream's recommended order whatever the input order", () => {
  const shuffled = [
    "ResourceQuota",
    "Priority",
    "KueuePodWebhook",
    "NamespaceLifecycle",
    "RBACEscalation",
    "PodSecurity",
    "GangAdmission",
    "LimitRanger",
    "ServiceAccount",
    "DefaultIngressClass",
    "DefaultStorageClass",
    "DefaultTolerationSeconds",
    "StorageObjectInUseProtection",
  ];
  assert.deepEqual(
    orderAdmissionPlugins(shuffled.map(named)).map((p) => p.name),
    [...admissionPluginOrder],
  );
});

test("orderAdmissionPlugins: unknown plugins run where webhooks run, in the order given", () => {
  const names = ["ResourceQuota", "Webhook1", "NamespaceLifecycle", "Webhook2", "Priority"];
  assert.deepEqual(
    orderAdmissionPlugins(names.map(named)).map((p) => p.name),
    ["NamespaceLifecycle", "Priority", "Webhook1", "Webhook2", "ResourceQuota"],
  );
});

test("orderAdmissionPlugins: disabled plugins are left out", () => {
  const names = ["NamespaceLifecycle", "LimitRanger", "ResourceQuota"];
  assert.deepEqual(
    orderAdmissionPlugins(names.map(named), new Set(["LimitRanger", "ResourceQuota"])).map(
      (p) => p.name,
    ),
    ["NamespaceLifecycle"],
  );
});

function server(options: { disabled?: string[] } = {}): ApiServer {
  return new ApiServer({
    storage: newMemoryStorage(),
    clock: systemClock,
    random: seededRandom(1),
    logger: discardLogger,
    authenticate: newAnonymousAuthenticator("token"),
    kinds: builtInKinds(),
    qosClassOf: qosClassOf as never,
    defaultTolerations: defaultTolerations as never,
    serviceAccountAdmission: true,
    // As `gantry up --gang-admission strict` with Kueue's pod webhooks.
    extraAdmission: (reader) => [newGangAdmission(reader), named("KueuePodWebhook")],
    ...(options.disabled === undefined ? {} : { disabledAdmissionPlugins: options.disabled }),
  });
}

test("ApiServer: the admission chain runs in upstream's order, ResourceQuota last", () => {
  assert.deepEqual(server().admissionPlugins, [
    "NamespaceLifecycle",
    "LimitRanger",
    "ServiceAccount",
    "PodSecurity",
    "Priority",
    "DefaultTolerationSeconds",
    "DefaultStorageClass",
    "StorageObjectInUseProtection",
    "DefaultIngressClass",
    "GangAdmission",
    "KueuePodWebhook",
    "RBACEscalation",
    "ResourceQuota",
  ]);
});

test("ApiServer: --disable-admission-plugins leaves plugins out of the chain", () => {
  const names = server({ disabled: ["LimitRanger", "ResourceQuota"] }).admissionPlugins;
  assert.equal(names.includes("LimitRanger"), false, "LimitRanger left out");
  assert.equal(names.includes("ResourceQuota"), false, "ResourceQuota left out");
  assert.equal(names[0], "NamespaceLifecycle");
});
