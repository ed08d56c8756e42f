import assert from "node:assert/strict";
import { test } from "node:test";
import {
  defaultControllerManagerSettings,
  readControllerManagerSettings,
} from "./controller-manager-settings.ts";
import { Problems } from "./reader.ts";

test("readControllerManagerSettings: resourceQuotaSyncPeriod, 5m by default as upstream's", () => {
  assert.equal(defaultControllerManagerSettings.resourceQuotaSyncPeriodMs, 300_000);
  const problems = new Problems();
  const settings = readControllerManagerSettings(
    { resourceQuotaSyncPeriod: "30s" },
    "controllerManager",
    problems,
  );
  assert.equal(settings.resourceQuotaSyncPeriodMs, 30_000);
  assert.deepEqual(problems.list, []);
});

test("readControllerManagerSettings: a zero resourceQuotaSyncPeriod is refused", () => {
  const problems = new Problems();
  readControllerManagerSettings({ resourceQuotaSyncPeriod: "0s" }, "controllerManager", problems);
  assert.deepEqual(problems.list, [
    "controllerManager.resourceQuotaSyncPeriod: must be longer than 0s",
  ]);
});
