import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { type GantryProcess, startGantry } from "../../testing/index.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";

/** Debian's python3-kubernetes (22.6), installed by .ci/run. */
const python = "/usr/bin/python3";
const scripts = join(import.meta.dirname, "python");

/**
 * Runs a script under python/ and parses the JSON object it prints: one entry per step, with
 * `{ error }` for a step that failed (the script then exits 1, and the cases show which step).
 * Rejects when the script prints no JSON (it failed outside its steps).
 */
function runScript(script: string, args: readonly string[]): Promise<Record<string, unknown>> {
  return new Promise((resolveRun, reject) => {
    execFile(
      python,
      [join(scripts, script), ...args],
      { timeout: 60_000, env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" } },
      (error, stdout, stderr) => {
        try {
          resolveRun(JSON.parse(stdout) as Record<string, unknown>);
        } catch {
          const exit = error === null ? "0" : String(error.code ?? error.signal);
          reject(new Error(`${script} (exit ${exit}) printed no JSON:\n${stdout}\n${stderr}`));
        }
      },
    );
  });
}

const status = (code: number, reason: string, message: string, details: object) => ({
  status: code,
  body: {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message,
    reason,
    details,
    code,
  },
});

describe("python3-kubernetes 22.6 against gantry up", () => {
  let gantry: GantryProcess;
  let result: Record<string, unknown>;

  before(async () => {
    gantry = await startGantry({ storage: "memory" });
    result = await runScript("client_e2e.py", [gantry.kubeconfig, "python-client"]);
  });
  after(async () => {
    await gantry[Symbol.asyncDispose]();
  });
  ensureNoLeaksAfterSuite();

  const cases = [
    {
      name: "create_namespace returns an Active namespace",
      key: "namespace",
      want: { name: "python-client", phase: "Active" },
    },
    {
      name: "read_namespaced_config_map returns its data",
      key: "configmap",
      want: { mode: "fast" },
    },
    {
      name: "list_namespaced_config_map filters by label",
      key: "configmaps_by_label",
      want: ["settings"],
    },
    {
      name: "list_namespaced_pod filters by an equality label selector",
      key: "label_selector",
      want: ["web-1", "web-2", "web-3"],
    },
    {
      name: "list_namespaced_pod filters by a set-based label selector",
      key: "set_selector",
      want: ["db-1"],
    },
    {
      name: "list_namespaced_pod filters by a field selector",
      key: "field_selector",
      want: ["web-2"],
    },
    {
      name: "list_namespaced_pod pages with limit and _continue",
      key: "pages",
      want: [["db-1", "web-1", "web-2"], ["web-3"]],
    },
    {
      name: "Watch.stream (watch=True) sees ADDED, MODIFIED and DELETED",
      key: "watch",
      want: ["ADDED", "MODIFIED", "DELETED"],
    },
    {
      name: "patch_namespaced_pod with a dict is a strategic merge (containers merge by name)",
      key: "strategic_patch",
      want: {
        labels: { patched: "yes", tier: "web" },
        containers: [["app", "registry.k8s.io/pause:3.9"]],
      },
    },
    {
      name: "patch_namespaced_pod with a list is a JSON patch",
      key: "json_patch_labels",
      want: { tier: "web" },
    },
    {
      name: "replace_namespaced_config_map of an object read back succeeds",
      key: "replaced",
      want: { mode: "slow" },
    },
    {
      name: "replace with a stale resourceVersion is the 409 Conflict",
      key: "stale_replace",
      want: status(
        409,
        "Conflict",
        'Operation cannot be fulfilled on configmaps "settings": the object has been modified; please apply your changes to the latest version and try again',
        { name: "settings", kind: "configmaps" },
      ),
    },
    {
      name: "create of an existing name is the 409 AlreadyExists",
      key: "already_exists",
      want: status(409, "AlreadyExists", 'configmaps "settings" already exists', {
        name: "settings",
        kind: "configmaps",
      }),
    },
    {
      name: "read of a missing pod is the 404 NotFound",
      key: "not_found",
      want: status(404, "NotFound", 'pods "nope" not found', { name: "nope", kind: "pods" }),
    },
    {
      name: "delete with an unknown propagation policy is the 422 of DeleteOptions",
      key: "bad_propagation",
      want: status(
        422,
        "Invalid",
        'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"',
        {
          name: "",
          group: "meta.k8s.io",
          kind: "DeleteOptions",
          causes: [
            {
              reason: "FieldValueNotSupported",
              message:
                'Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"',
              field: "propagationPolicy",
            },
          ],
        },
      ),
    },
    {
      name: "delete_namespaced_pod with Background propagation removes the pod",
      key: "after_delete",
      want: ["web-1", "web-2"],
    },
    {
      name: "AppsV1Api reads a Deployment's scale and patches it",
      key: "deployment_scale",
      want: [1, 2],
    },
    {
      name: "delete_namespaced_deployment (Background) leaves a 404",
      key: "deployment_gone",
      want: 404,
    },
  ] as const;

  for (const c of cases) {
    test(`CoreV1Api/AppsV1Api: ${c.name}`, () => {
      assert.deepEqual(result[c.key], c.want);
    });
  }
});

describe("python3-kubernetes 22.6 against gantry up --tls", () => {
  let gantry: GantryProcess;

  before(async () => {
    gantry = await startGantry({ tls: true, storage: "memory" });
  });
  after(async () => {
    await gantry[Symbol.asyncDispose]();
  });
  ensureNoLeaksAfterSuite();

  test("load_kube_config: https with the kubeconfig's CA and client certificate lists, creates and reads", async () => {
    const result = await runScript("tls_smoke.py", [gantry.kubeconfig]);
    assert.deepEqual(result, {
      configuration: {
        host: gantry.url,
        verify_ssl: true,
        has_ca: true,
        has_client_certificate: true,
      },
      namespaces: ["default", "kube-node-lease", "kube-public", "kube-system"],
      configmap: { secure: "yes" },
      wrong_token: {
        status: 401,
        body: {
          kind: "Status",
          apiVersion: "v1",
          metadata: {},
          status: "Failure",
          message: "Unauthorized",
          reason: "Unauthorized",
          code: 401,
        },
      },
    });
  });
});
