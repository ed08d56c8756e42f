import assert from "node:assert/strict";
import { test } from "node:test";
import { defaultQueueingConfig, parseQueueingConfig } from "./config.ts";

test("parseQueueingConfig: no section gives Kueue's defaults (pod framework, system namespaces excluded)", () => {
  assert.deepEqual(parseQueueingConfig(undefined), defaultQueueingConfig);
  assert.deepEqual(
    defaultQueueingConfig.managedJobsNamespaceSelector.matchExpressions?.[0]?.values,
    ["kube-system", "kueue-system"],
  );
});

test("parseQueueingConfig: given keys override defaults, others stay", () => {
  const config = parseQueueingConfig({
    manageJobsWithoutQueueName: true,
    podOptions: { podSelector: { matchLabels: { team: "a" } } },
  });
  assert.equal(config.manageJobsWithoutQueueName, true);
  assert.deepEqual(config.podOptions, { podSelector: { matchLabels: { team: "a" } } });
  assert.deepEqual(config.frameworks, ["pod"]);
  assert.equal(config.enabled, true);
});

const bad = [
  { name: "an unknown key", raw: { manage: true }, want: /^queueing\.manage: unknown field/ },
  {
    name: "a non-boolean flag",
    raw: { enabled: "yes" },
    want: /^queueing\.enabled: must be true or false$/,
  },
  {
    name: "an unknown framework",
    raw: { frameworks: ["pod", "spark"] },
    want: /integration "spark" is not known/,
  },
  {
    name: "a selector with an unknown field",
    raw: { podOptions: { podSelector: { labels: {} } } },
    want: /^queueing\.podOptions\.podSelector\.labels: unknown field/,
  },
] as const;

for (const c of bad) {
  test(`parseQueueingConfig: rejects ${c.name}`, () => {
    assert.throws(
      () => parseQueueingConfig(c.raw),
      (error: unknown) => error instanceof TypeError && c.want.test(error.message),
    );
  });
}
