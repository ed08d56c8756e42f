/**
 * The deterministic cases of bad-input.test.ts: one request per category of bad input, with the
 * code, reason and (where upstream's is known) the exact message it must get.
 */
import { seededRandom } from "../../util/index.ts";
import {
  type BadRequest,
  fuzzNamespace,
  jsonHeaders,
  oversized,
  targetName,
} from "./bad-input-garbage.ts";

export interface BadInputCase {
  readonly name: string;
  readonly req: () => BadRequest;
  readonly code: number;
  readonly reason: string;
  /** The exact message, a pattern for it, or a function computing it once fixtures exist. */
  readonly message?: string | RegExp | (() => string);
}

const configmaps = () => `/api/v1/namespaces/${fuzzNamespace}/configmaps`;
const pods = () => `/api/v1/namespaces/${fuzzNamespace}/pods`;
const body = (value: unknown) => Buffer.from(JSON.stringify(value));

/** The cases; `targetRv` gives the resourceVersion of a fixture (`v1/configmaps`). */
export function badInputCases(targetRv: (key: string) => string): BadInputCase[] {
  return [
    {
      name: "Handler.create: an unsupported Content-Type is 415 listing the accepted types",
      req: () => ({
        what: "text/plain body",
        method: "POST",
        path: configmaps(),
        headers: { "content-type": "text/plain" },
        body: Buffer.from("hello"),
      }),
      code: 415,
      reason: "UnsupportedMediaType",
      message:
        "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf",
    },
    {
      name: "Handler.patch: an unsupported patch type is 415 listing the patch types",
      req: () => ({
        what: "text/plain patch",
        method: "PATCH",
        path: `${configmaps()}/${targetName}`,
        headers: { "content-type": "text/plain" },
        body: Buffer.from("{}"),
      }),
      code: 415,
      reason: "UnsupportedMediaType",
      message:
        "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml",
    },
    {
      name: "Handler.create: a body over 3 MiB is 413",
      req: () => ({
        what: "oversized body",
        method: "POST",
        path: configmaps(),
        headers: jsonHeaders,
        body: oversized(seededRandom(1)),
      }),
      code: 413,
      reason: "RequestEntityTooLarge",
      message: "Request entity too large: limit is 3145728",
    },
    {
      name: "Handler.update: PUT on a collection is 405",
      req: () => ({
        what: "PUT collection",
        method: "PUT",
        path: configmaps(),
        headers: jsonHeaders,
        body: body({}),
      }),
      code: 405,
      reason: "MethodNotAllowed",
      message: "the server does not allow this method on the requested resource",
    },
    {
      name: "Handler.list: a verb the resource does not serve is 405 (GET bindings)",
      req: () => ({
        what: "GET bindings",
        method: "GET",
        path: `/api/v1/namespaces/${fuzzNamespace}/bindings`,
        headers: jsonHeaders,
      }),
      code: 405,
      reason: "MethodNotAllowed",
      message: "the server does not allow this method on the requested resource",
    },
    {
      name: "Router: an unknown subresource is the generic 404",
      req: () => ({
        what: "pods/x/bogus",
        method: "GET",
        path: `${pods()}/${targetName}/bogus`,
        headers: jsonHeaders,
      }),
      code: 404,
      reason: "NotFound",
      message: "the server could not find the requested resource",
    },
    {
      name: "Handler.create: malformed JSON is 400",
      req: () => ({
        what: "truncated JSON",
        method: "POST",
        path: configmaps(),
        headers: jsonHeaders,
        body: Buffer.from('{"metadata":{"name":"a"'),
      }),
      code: 400,
      reason: "BadRequest",
      message: /^the body of the request could not be decoded as JSON: /,
    },
    {
      name: "Handler.create: malformed YAML is 400",
      req: () => ({
        what: "bad YAML",
        method: "POST",
        path: configmaps(),
        headers: { "content-type": "application/yaml" },
        body: Buffer.from("metadata: [name: a\n"),
      }),
      code: 400,
      reason: "BadRequest",
      message: /^the body of the request could not be decoded as YAML: /,
    },
    {
      name: "Handler.create: a body of another kind is 400",
      req: () => ({
        what: "Pod to configmaps",
        method: "POST",
        path: configmaps(),
        headers: jsonHeaders,
        body: body({ apiVersion: "v1", kind: "Pod", metadata: { name: "a" } }),
      }),
      code: 400,
      reason: "BadRequest",
      message: "the kind in the data (Pod) does not match the expected kind (ConfigMap)",
    },
    {
      name: "Handler.create: a value of the wrong JSON type is 400 with Go's decoder message",
      req: () => ({
        what: "data value 5",
        method: "POST",
        path: configmaps(),
        headers: jsonHeaders,
        body: body({ metadata: { name: "typed" }, data: { a: 5 } }),
      }),
      code: 400,
      reason: "BadRequest",
      message:
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
    },
    {
      name: "Handler.create: a nested value of the wrong JSON type names its Go struct and path",
      req: () => ({
        what: "containerPort string",
        method: "POST",
        path: pods(),
        headers: jsonHeaders,
        body: body({
          metadata: { name: "typed" },
          spec: { containers: [{ name: "a", image: "i", ports: [{ containerPort: "80" }] }] },
        }),
      }),
      code: 400,
      reason: "BadRequest",
      message:
        'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32',
    },
    {
      name: "Handler.create: an unknown field under fieldValidation=Strict is 400",
      req: () => ({
        what: "unknown field",
        method: "POST",
        path: `${configmaps()}?fieldValidation=Strict`,
        headers: jsonHeaders,
        body: body({ metadata: { name: "strict" }, bogus: 1 }),
      }),
      code: 400,
      reason: "BadRequest",
      message:
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "bogus"',
    },
    {
      name: "Handler.create: an invalid name is 422",
      req: () => ({
        what: "Bad_Name",
        method: "POST",
        path: configmaps(),
        headers: jsonHeaders,
        body: body({ metadata: { name: "Bad_Name" } }),
      }),
      code: 422,
      reason: "Invalid",
      message:
        "ConfigMap \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    },
    {
      name: "Handler.create: dryRun=Bogus is 422 CreateOptions",
      req: () => ({
        what: "dryRun=Bogus",
        method: "POST",
        path: `${configmaps()}?dryRun=Bogus`,
        headers: jsonHeaders,
        body: body({ metadata: { name: "dry" } }),
      }),
      code: 422,
      reason: "Invalid",
      message:
        'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Bogus"}: supported values: "All"',
    },
    {
      name: "Handler.update: fieldValidation=Bogus is 422 UpdateOptions",
      req: () => ({
        what: "fieldValidation=Bogus",
        method: "PUT",
        path: `${configmaps()}/${targetName}?fieldValidation=Bogus`,
        headers: jsonHeaders,
        body: body({ metadata: { name: targetName } }),
      }),
      code: 422,
      reason: "Invalid",
      message:
        'UpdateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Bogus": supported values: "", "Ignore", "Strict", "Warn"',
    },
    {
      name: "Handler.update: a stale resourceVersion is 409 Conflict",
      req: () => ({
        what: "stale resourceVersion",
        method: "PUT",
        path: `${configmaps()}/${targetName}`,
        headers: jsonHeaders,
        body: body({ metadata: { name: targetName, resourceVersion: "1" }, data: { a: "b" } }),
      }),
      code: 409,
      reason: "Conflict",
      message:
        'Operation cannot be fulfilled on configmaps "target": the object has been modified; please apply your changes to the latest version and try again',
    },
    {
      name: "Handler.patch: a stale resourceVersion in a merge patch is 409 Conflict",
      req: () => ({
        what: "stale resourceVersion patch",
        method: "PATCH",
        path: `${configmaps()}/${targetName}`,
        headers: { "content-type": "application/merge-patch+json" },
        body: body({ metadata: { resourceVersion: "1" }, data: { a: "b" } }),
      }),
      code: 409,
      reason: "Conflict",
      message:
        'Operation cannot be fulfilled on configmaps "target": the object has been modified; please apply your changes to the latest version and try again',
    },
    {
      name: "Handler.patch: apply without fieldManager is 422 PatchOptions",
      req: () => ({
        what: "apply without fieldManager",
        method: "PATCH",
        path: `${configmaps()}/${targetName}`,
        headers: { "content-type": "application/apply-patch+yaml" },
        body: body({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: targetName } }),
      }),
      code: 422,
      reason: "Invalid",
      message:
        'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
    },
    {
      name: "Handler.patch: force on a merge patch is 422 PatchOptions",
      req: () => ({
        what: "force on merge patch",
        method: "PATCH",
        path: `${configmaps()}/${targetName}?force=true`,
        headers: { "content-type": "application/merge-patch+json" },
        body: body({ data: { a: "b" } }),
      }),
      code: 422,
      reason: "Invalid",
      message:
        'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
    },
    {
      name: "Handler.delete: an unsupported propagationPolicy is 422 DeleteOptions",
      req: () => ({
        what: "propagationPolicy Bogus",
        method: "DELETE",
        path: `${configmaps()}/${targetName}`,
        headers: jsonHeaders,
        body: body({ propagationPolicy: "Bogus" }),
      }),
      code: 422,
      reason: "Invalid",
      message:
        'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Bogus": supported values: "Foreground", "Background", "Orphan", "nil"',
    },
    {
      name: "Handler.delete: a stale resourceVersion precondition is 409 Conflict",
      req: () => ({
        what: "stale precondition",
        method: "DELETE",
        path: `${configmaps()}/${targetName}`,
        headers: jsonHeaders,
        body: body({ preconditions: { resourceVersion: "1" } }),
      }),
      code: 409,
      reason: "Conflict",
      message: () =>
        `Operation cannot be fulfilled on configmaps "target": Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: ${targetRv("v1/configmaps")}`,
    },
    {
      name: "Handler.delete: a DeleteOptions field of the wrong type is 400",
      req: () => ({
        what: "gracePeriodSeconds string",
        method: "DELETE",
        path: `${configmaps()}/${targetName}`,
        headers: jsonHeaders,
        body: body({ gracePeriodSeconds: "soon" }),
      }),
      code: 400,
      reason: "BadRequest",
      message:
        "json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64",
    },
    {
      name: "Handler.list: a malformed label selector is 400",
      req: () => ({
        what: "labelSelector",
        method: "GET",
        path: `${pods()}?labelSelector=${encodeURIComponent("a in (b")}`,
        headers: jsonHeaders,
      }),
      code: 400,
      reason: "BadRequest",
      message: /^unable to parse requirement: /,
    },
    {
      name: "Handler.list: an unsupported field selector on pods is 400 field label not supported",
      req: () => ({
        what: "fieldSelector pods",
        method: "GET",
        path: `${pods()}?fieldSelector=${encodeURIComponent("bogus.field=x")}`,
        headers: jsonHeaders,
      }),
      code: 400,
      reason: "BadRequest",
      message: "field label not supported: bogus.field",
    },
    {
      name: "Handler.list: an unsupported field selector on configmaps is 400 with the default converter's message",
      req: () => ({
        what: "fieldSelector configmaps",
        method: "GET",
        path: `${configmaps()}?fieldSelector=${encodeURIComponent("bogus.field=x")}`,
        headers: jsonHeaders,
      }),
      code: 400,
      reason: "BadRequest",
      message:
        '"bogus.field" is not a known field selector: only "metadata.name", "metadata.namespace"',
    },
    {
      name: "Handler.list: limit=abc is 400 with strconv's message",
      req: () => ({
        what: "limit=abc",
        method: "GET",
        path: `${pods()}?limit=abc`,
        headers: jsonHeaders,
      }),
      code: 400,
      reason: "BadRequest",
      message: 'strconv.ParseInt: parsing "abc": invalid syntax',
    },
    {
      name: "Handler.list: resourceVersion=abc is 400 (upstream answers 500, kubernetes#101350)",
      req: () => ({
        what: "resourceVersion=abc",
        method: "GET",
        path: `${pods()}?resourceVersion=abc`,
        headers: jsonHeaders,
      }),
      code: 400,
      reason: "BadRequest",
      message:
        'resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax',
    },
    {
      name: "Handler.list: resourceVersionMatch=Bogus is 422 ListOptions",
      req: () => ({
        what: "resourceVersionMatch=Bogus",
        method: "GET",
        path: `${pods()}?resourceVersion=1&resourceVersionMatch=Bogus`,
        headers: jsonHeaders,
      }),
      code: 422,
      reason: "Invalid",
      message:
        'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Unsupported value: "Bogus": supported values: "Exact", "NotOlderThan", ""',
    },
    {
      name: "Handler.watch: timeoutSeconds=x is 400 before the stream starts",
      req: () => ({
        what: "watch timeoutSeconds=x",
        method: "GET",
        path: `${pods()}?watch=true&timeoutSeconds=x`,
        headers: jsonHeaders,
      }),
      code: 400,
      reason: "BadRequest",
      message: 'strconv.ParseInt: parsing "x": invalid syntax',
    },
    {
      name: "Handler.watch: resourceVersionMatch without sendInitialEvents is 422 ListOptions",
      req: () => ({
        what: "watch resourceVersionMatch",
        method: "GET",
        path: `${pods()}?watch=true&resourceVersionMatch=NotOlderThan`,
        headers: jsonHeaders,
      }),
      code: 422,
      reason: "Invalid",
      message:
        'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
    },
  ];
}
