/**
 * The newest of `objects` by `metadata.creationTimestamp`, ties broken by the smaller name:
 * how upstream picks among several classes marked default (storage/util's `GetDefaultClass`,
 * the DefaultIngressClass admission plugin). `undefined` when there are none.
 */
export function newestByCreation<
  T extends {
    readonly metadata: { readonly name?: string; readonly creationTimestamp?: string | null };
  },
>(objects: readonly T[]): T | undefined {
  const created = (o: T): number => Date.parse(o.metadata.creationTimestamp ?? "") || 0;
  return [...objects].sort((a, b) => {
    const byAge = created(b) - created(a);
    if (byAge !== 0) return byAge;
    const [x, y] = [a.metadata.name ?? "", b.metadata.name ?? ""];
    return x < y ? -1 : x > y ? 1 : 0;
  })[0];
}
