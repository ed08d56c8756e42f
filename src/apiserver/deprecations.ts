/**
 * The warning kube-apiserver attaches to every request for a resource its release deprecates
 * (the `deprecation` filter: kubectl prints it as `Warning: …`, client-go logs it). In 1.33
 * that is v1 Endpoints (KEP-4974).
 */
const deprecated: ReadonlyMap<string, string> = new Map([
  ["/v1/endpoints", "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice"],
]);

/** The deprecation warning for requests to `group/version/resource`; undefined when none. */
export function deprecationWarning(
  group: string,
  version: string,
  resource: string,
): string | undefined {
  return deprecated.get(`${group}/${version}/${resource}`);
}
