/**
 * The body of an update the queueing component sends: the object without
 * `metadata.managedFields`. The API server then keeps the stored ones, as kube-apiserver does
 * for an update that carries none (and always does for a status update), so the stored object
 * is the same; neither side encodes, sends or decodes them (a Workload's hold its whole pod
 * template's field set).
 */
export function withoutManagedFields<T extends { readonly metadata: object }>(object: T): T {
  if (!("managedFields" in object.metadata)) return object;
  const { managedFields: _, ...metadata } = object.metadata as { managedFields?: unknown };
  return { ...object, metadata };
}
