/**
 * The bodies of the writes the queueing component sends.
 *
 * - `withoutManagedFields`: the object without `metadata.managedFields`. The API server then
 *   keeps the stored ones, as kube-apiserver does for an update that carries none (and always
 *   does for a status update), so the stored object is the same; neither side encodes, sends or
 *   decodes them (a Workload's hold its whole pod template's field set).
 * - `statusOnly`: a status update's body, the object's identity and its status only. A PUT to
 *   the status subresource takes nothing else from the body (kube-apiserver copies every other
 *   field from the stored object), so the Workload's spec, with its pod templates, need not
 *   travel; Kueue's own status writes (server-side apply patches) carry the status alone too.
 * - `mergePatchOf`: the JSON merge patch (RFC 7386) from one object to another, as
 *   controller-runtime's `client.MergeFrom` computes it for Kueue's `clientutil.Patch`.
 */
import { twoWayDiff } from "../api/index.ts";
import { isPlainObject, jsonEqual } from "../util/index.ts";

export { withoutManagedFields } from "../api/index.ts";

interface StatusHolder {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata: {
    readonly name?: string;
    readonly namespace?: string;
    readonly uid?: string;
    readonly resourceVersion?: string;
    readonly labels?: unknown;
    readonly annotations?: unknown;
  };
  readonly status?: unknown;
}

/**
 * The body of a status update of `object`: `apiVersion`, `kind`, the metadata that names it and
 * guards the write (name, namespace, uid, resourceVersion), its labels and annotations as they
 * are (an API server that takes those from a status update then keeps them), and `status`.
 */
export function statusOnly<T extends StatusHolder>(object: T): T {
  const m = object.metadata;
  const metadata: Record<string, unknown> = {};
  if (m.name !== undefined) metadata["name"] = m.name;
  if (m.namespace !== undefined) metadata["namespace"] = m.namespace;
  if (m.uid !== undefined) metadata["uid"] = m.uid;
  if (m.resourceVersion !== undefined) metadata["resourceVersion"] = m.resourceVersion;
  if (m.labels !== undefined) metadata["labels"] = m.labels;
  if (m.annotations !== undefined) metadata["annotations"] = m.annotations;
  const body: Record<string, unknown> = {};
  if (object.apiVersion !== undefined) body["apiVersion"] = object.apiVersion;
  if (object.kind !== undefined) body["kind"] = object.kind;
  body["metadata"] = metadata;
  if (object.status !== undefined) body["status"] = object.status;
  return body as unknown as T;
}

/**
 * The JSON merge patch that turns `before` into `after`: changed and added fields with their new
 * values, removed fields as `null`, objects compared field by field, anything else (arrays
 * included) replaced whole. `undefined` when they are equal.
 */
export function mergePatchOf(before: unknown, after: unknown): unknown {
  if (!isPlainObject(before) || !isPlainObject(after)) {
    return jsonEqual(before, after) ? undefined : (after ?? null);
  }
  const patch = twoWayDiff(before, after, { equal: jsonEqual });
  return Object.keys(patch).length === 0 ? undefined : patch;
}
