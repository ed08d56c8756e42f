/**
 * `object` without `metadata.managedFields`: a shallow copy whose metadata lacks them, or `object`
 * itself when it has none. Nothing is deep-copied, so the result shares everything else.
 */
export function withoutManagedFields<T extends object>(object: T): T {
  const metadata = (object as { readonly metadata?: unknown }).metadata;
  if (typeof metadata !== "object" || metadata === null || !("managedFields" in metadata)) {
    return object;
  }
  const { managedFields: _, ...rest } = metadata as { managedFields?: unknown };
  return { ...object, metadata: rest };
}
