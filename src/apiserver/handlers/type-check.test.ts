import assert from "node:assert/strict";
import { test } from "node:test";
import { type ApiError, configMapKind, eventKind, podKind } from "../../api/index.ts";
import { decodeTyped } from "./type-check.ts";

const pod = (spec: unknown, metadata: Record<string, unknown> = { name: "p" }) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata,
  spec,
});
const container = { name: "c", image: "i" };
const podPrefix = 'Pod in version "v1" cannot be handled as a Pod: ';

/** The 400's message, or "" when the object decodes. */
function decodeError(run: () => void): string {
  try {
    run();
    return "";
  } catch (error: unknown) {
    const apiError = error as ApiError;
    assert.equal(apiError.code, 400);
    return apiError.message;
  }
}

const rejections = [
  {
    name: "a string where a list of structs belongs names the slice type",
    obj: pod({ containers: "x" }),
    want: `${podPrefix}json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container`,
  },
  {
    name: "a nested field names its innermost struct and the path without indices",
    obj: pod({ containers: [{ ...container, ports: [{ containerPort: "80" }] }] }),
    want: `${podPrefix}json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32`,
  },
  {
    name: "a map value of the wrong type keeps the map's path",
    obj: pod({ containers: [container] }, { name: "p", labels: { a: 1 } }),
    want: `${podPrefix}json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string`,
  },
  {
    name: "a fraction where an integer belongs prints the number",
    obj: pod({ containers: [container], terminationGracePeriodSeconds: 1.5 }),
    want: `${podPrefix}json: cannot unmarshal number 1.5 into Go struct field PodSpec.spec.terminationGracePeriodSeconds of type int64`,
  },
  {
    name: "an int32 out of range is rejected",
    obj: pod({ containers: [{ ...container, ports: [{ containerPort: 2 ** 31 }] }] }),
    want: `${podPrefix}json: cannot unmarshal number 2147483648 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32`,
  },
  {
    name: "a quantity that is neither string nor number gets the quantity message",
    obj: pod({ containers: [{ ...container, resources: { limits: { cpu: { a: 1 } } } }] }),
    want: `${podPrefix}quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
  },
  {
    name: "an IntOrString object is an int32 mismatch",
    obj: pod({
      containers: [{ ...container, livenessProbe: { httpGet: { port: { x: 1 } } } }],
    }),
    want: `${podPrefix}json: cannot unmarshal object into Go struct field HTTPGetAction.spec.containers.livenessProbe.httpGet.port of type int32`,
  },
  {
    name: "a typed object that preserves unknown fields must still be an object",
    obj: pod({ containers: [container], securityContext: "root" }),
    want: `${podPrefix}json: cannot unmarshal string into Go struct field PodSpec.spec.securityContext of type v1.PodSecurityContext`,
  },
  {
    name: "a timestamp that is not RFC 3339 gets time.Parse's message",
    obj: pod({ containers: [container] }, { name: "p", creationTimestamp: "yesterday" }),
    want: `${podPrefix}parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"`,
  },
] as const;

for (const c of rejections) {
  test(`decodeTyped: ${c.name}`, () => {
    assert.equal(
      decodeError(() => decodeTyped(podKind, structuredClone(c.obj))),
      c.want,
    );
  });
}

test("decodeTyped: null fields go, null list items and map values become zero values", () => {
  const obj: Record<string, unknown> = {
    metadata: { name: "c", labels: null, annotations: { a: null } },
    data: null,
  };
  decodeTyped(configMapKind, obj);
  assert.deepEqual(obj, { metadata: { name: "c", annotations: { a: "" } } });
});

test("decodeTyped: timestamps are rewritten as the server writes them", () => {
  const obj: Record<string, unknown> = {
    metadata: { name: "e", creationTimestamp: "2026-01-02T04:05:06.789+01:00" },
    involvedObject: { kind: "Pod", name: "p" },
    eventTime: "2026-01-02T03:05:06.5Z",
  };
  decodeTyped(eventKind, obj);
  assert.deepEqual(obj["metadata"], { name: "e", creationTimestamp: "2026-01-02T03:05:06Z" });
  assert.equal(obj["eventTime"], "2026-01-02T03:05:06.500000Z");
});

test("decodeTyped: a custom resource's metadata is typed, its body is left to its schema", () => {
  const widget = { metadata: { name: "w" }, spec: { size: "any JSON" } };
  assert.equal(
    decodeError(() => decodeTyped(configMapKind, structuredClone(widget), "metadata")),
    "",
  );
  assert.match(
    decodeError(() =>
      decodeTyped(configMapKind, { metadata: { name: "w", labels: [1] } }, "metadata"),
    ),
    /cannot unmarshal array into Go struct field ObjectMeta\.metadata\.labels of type map\[string\]string$/,
  );
});

test("decodeTyped: unknown fields are left for pruning", () => {
  const obj = { metadata: { name: "c" }, bogus: { deep: [1, 2] } };
  decodeTyped(configMapKind, obj);
  assert.deepEqual(obj.bogus, { deep: [1, 2] });
});
