import assert from "node:assert/strict";
import { test } from "node:test";
import { apiServerSettings } from "./apiserver-flags.ts";

test("apiServerSettings: --disable-admission-plugins names LimitRanger and ResourceQuota as upstream", () => {
  assert.equal(apiServerSettings({}).disabledAdmissionPlugins, undefined);
  assert.deepEqual(
    apiServerSettings({ "disable-admission-plugins": "LimitRanger, ResourceQuota" })
      .disabledAdmissionPlugins,
    ["LimitRanger", "ResourceQuota"],
  );
});
