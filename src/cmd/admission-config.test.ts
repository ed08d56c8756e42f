import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { loadPodSecurityConfiguration } from "./admission-config.ts";
import { apiServerSettings } from "./apiserver-flags.ts";
import { UsageError } from "./usage-error.ts";

const dir = mkdtempSync(join(tmpdir(), "gantry-admission-config-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const inline = `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: ResourceQuota
  path: quota.yaml
- name: PodSecurity
  configuration:
    apiVersion: pod-security.admission.config.k8s.io/v1
    kind: PodSecurityConfiguration
    defaults:
      enforce: baseline
      warn: restricted
    exemptions:
      namespaces: [kube-system]
`;

test("loadPodSecurityConfiguration: the PodSecurity entry's inline configuration", () => {
  const config = loadPodSecurityConfiguration(file("inline.yaml", inline));
  assert.deepEqual(config, {
    defaults: {
      enforce: { level: "baseline", version: { latest: true } },
      audit: { level: "privileged", version: { latest: true } },
      warn: { level: "restricted", version: { latest: true } },
    },
    exemptions: { usernames: [], runtimeClasses: [], namespaces: ["kube-system"] },
  });
});

test("loadPodSecurityConfiguration: a path relative to the admission configuration file", () => {
  file(
    "podsecurity.json",
    JSON.stringify({
      apiVersion: "pod-security.admission.config.k8s.io/v1",
      kind: "PodSecurityConfiguration",
      exemptions: { usernames: ["ops"] },
    }),
  );
  const config = loadPodSecurityConfiguration(
    file(
      "by-path.yaml",
      "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodSecurity\n  path: podsecurity.json\n",
    ),
  );
  assert.deepEqual(config?.exemptions.usernames, ["ops"]);
});

test("loadPodSecurityConfiguration: no PodSecurity entry leaves the defaults", () => {
  const path = file(
    "none.yaml",
    "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins: []\n",
  );
  assert.equal(loadPodSecurityConfiguration(path), undefined);
});

const bad = [
  {
    name: "an invalid level names the field",
    text: inline.replace("enforce: baseline", "enforce: strict"),
    want: 'plugins[1].configuration.defaults.enforce: Invalid value: "strict": must be one of privileged, baseline, restricted',
  },
  {
    name: "another kind",
    text: "apiVersion: v1\nkind: ConfigMap\n",
    want: "apiVersion must be one of apiserver.config.k8s.io/v1, apiserver.config.k8s.io/v1alpha1, apiserver.k8s.io/v1alpha1",
  },
  {
    name: "an entry with neither configuration nor path",
    text: "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodSecurity\n",
    want: "plugins[0]: PodSecurity needs a configuration or a path",
  },
] as const;

for (const c of bad) {
  test(`loadPodSecurityConfiguration: ${c.name} is a usage error`, () => {
    const path = file("bad.yaml", c.text);
    assert.throws(
      () => loadPodSecurityConfiguration(path),
      (error: unknown) =>
        error instanceof UsageError &&
        error.message === `Cannot use --admission-control-config-file "${path}": ${c.want}`,
    );
  });
}

test("loadPodSecurityConfiguration: a missing file is a usage error", () => {
  assert.throws(
    () => loadPodSecurityConfiguration(join(dir, "missing.yaml")),
    (error: unknown) =>
      error instanceof UsageError &&
      error.message.startsWith(
        `Cannot read --admission-control-config-file "${join(dir, "missing.yaml")}"`,
      ),
  );
});

test("apiServerSettings: --admission-control-config-file becomes the PodSecurity setting", () => {
  const settings = apiServerSettings({ "admission-control-config-file": file("s.yaml", inline) });
  assert.equal(settings.podSecurity?.defaults.enforce.level, "baseline");
  assert.equal(apiServerSettings({}).podSecurity, undefined);
});
