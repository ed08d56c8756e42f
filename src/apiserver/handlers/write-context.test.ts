import assert from "node:assert/strict";
import { test } from "node:test";
import type { ApiError } from "../../api/index.ts";
import { deleteOptionsOf, validateWriteOptions } from "./write-context.ts";

function outcome(run: () => unknown): string {
  try {
    const value = run();
    return value === undefined ? "ok" : JSON.stringify(value);
  } catch (error: unknown) {
    const apiError = error as ApiError;
    return `${apiError.code} ${apiError.message}`;
  }
}

const writes = [
  {
    name: "kubectl's create options pass",
    kind: "CreateOptions",
    query: "fieldManager=kubectl-create&fieldValidation=Strict&dryRun=All",
    patch: "",
    want: "ok",
  },
  {
    name: "a dryRun other than All is 422 with Go's slice",
    kind: "CreateOptions",
    query: "dryRun=All&dryRun=Bogus",
    patch: "",
    want: '422 CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"All", "Bogus"}: supported values: "All"',
  },
  {
    name: "an unknown fieldValidation is 422",
    kind: "UpdateOptions",
    query: "fieldValidation=strict",
    patch: "",
    want: '422 UpdateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "strict": supported values: "", "Ignore", "Strict", "Warn"',
  },
  {
    name: "a fieldManager over 128 bytes is too long",
    kind: "CreateOptions",
    query: `fieldManager=${"m".repeat(129)}`,
    patch: "",
    want: '422 CreateOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes',
  },
  {
    name: "a control character in fieldManager is named with its byte offset",
    kind: "CreateOptions",
    query: "fieldManager=ab%01",
    patch: "",
    want: '422 CreateOptions.meta.k8s.io "" is invalid: fieldManager: Invalid value: "ab\\u0001": invalid character U+0001 (at position 2)',
  },
  {
    name: "apply needs a fieldManager",
    kind: "PatchOptions",
    query: "",
    patch: "application/apply-patch+yaml",
    want: '422 PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
  },
  {
    name: "force is only for apply",
    kind: "PatchOptions",
    query: "force=false",
    patch: "application/merge-patch+json",
    want: '422 PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
  },
  {
    name: "force with apply passes",
    kind: "PatchOptions",
    query: "force=true&fieldManager=kubectl",
    patch: "application/apply-patch+yaml",
    want: "ok",
  },
] as const;

for (const c of writes) {
  test(`validateWriteOptions: ${c.name}`, () => {
    assert.equal(
      outcome(() => validateWriteOptions(new URLSearchParams(c.query), c.kind, c.patch)),
      c.want,
    );
  });
}

const deletes = [
  {
    name: "kubectl's body is read",
    query: "",
    body: { propagationPolicy: "Background", gracePeriodSeconds: 0 },
    want: '{"gracePeriodSeconds":0,"propagationPolicy":"Background"}',
  },
  {
    name: "the query is read when there is no body",
    query: "gracePeriodSeconds=5&dryRun=All",
    body: undefined,
    want: '{"gracePeriodSeconds":5,"dryRun":["All"]}',
  },
  {
    name: "a body wins over the query, as upstream decodes one or the other",
    query: "dryRun=All",
    body: {},
    want: "{}",
  },
  {
    name: "a negative grace period becomes 1",
    query: "gracePeriodSeconds=-5",
    body: undefined,
    want: '{"gracePeriodSeconds":1}',
  },
  {
    name: "a grace period that is not an integer is strconv's 400",
    query: "gracePeriodSeconds=soon",
    body: undefined,
    want: '400 strconv.ParseInt: parsing "soon": invalid syntax',
  },
  {
    name: "a body field of the wrong type is Go's decoder message",
    query: "",
    body: { orphanDependents: "yes" },
    want: "400 json: cannot unmarshal string into Go struct field DeleteOptions.orphanDependents of type bool",
  },
  {
    name: "a body of another kind is rejected",
    query: "",
    body: { kind: "Pod" },
    want: '400 no kind "Pod" is registered for the DeleteOptions body: send kind DeleteOptions',
  },
  {
    name: "an unknown policy is 422",
    query: "propagationPolicy=background",
    body: undefined,
    want: '422 DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "background": supported values: "Foreground", "Background", "Orphan", "nil"',
  },
  {
    name: "orphanDependents with a policy is 422",
    query: "",
    body: { orphanDependents: false, propagationPolicy: "Orphan" },
    want: '422 DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set',
  },
  {
    name: "a dryRun other than All is 422",
    query: "",
    body: { dryRun: ["Server"] },
    want: '422 DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Server"}: supported values: "All"',
  },
] as const;

for (const c of deletes) {
  test(`deleteOptionsOf: ${c.name}`, () => {
    const body =
      c.body === undefined ? undefined : (structuredClone(c.body) as Record<string, unknown>);
    assert.equal(
      outcome(() => deleteOptionsOf(new URLSearchParams(c.query), body)),
      c.want,
    );
  });
}
