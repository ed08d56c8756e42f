/** `apiextensions.k8s.io/v1` CustomResourceDefinition defaulting and create-time preparation. */
import type { CustomResourceDefinition } from "./crd.ts";

/**
 * `SetDefaults_CustomResourceDefinition` (v1): `names.singular` from the kind, `names.listKind`
 * as `<Kind>List`, conversion strategy `None`, a webhook service port of 443, and
 * `status.storedVersions` seeded with the storage version.
 */
export function defaultCustomResourceDefinition(crd: CustomResourceDefinition): void {
  const spec = crd.spec;
  if (spec === undefined) return;
  const names = spec.names;
  if (names !== undefined) {
    if ((names.singular ?? "") === "") names.singular = (names.kind ?? "").toLowerCase();
    if ((names.listKind ?? "") === "" && (names.kind ?? "") !== "")
      names.listKind = `${names.kind}List`;
  }
  spec.conversion ??= { strategy: "None" };
  const service = spec.conversion.webhook?.clientConfig?.service;
  if (service !== undefined) service.port ??= 443;
  crd.status ??= {};
  const status = crd.status;
  if ((status.storedVersions ?? []).length === 0) {
    const storage = (spec.versions ?? []).find((v) => v.storage);
    if (storage !== undefined) status.storedVersions = [storage.name];
  }
}

/**
 * What the CRD registry does on create: status starts empty apart from the storage version,
 * which is recorded as stored. The controller that accepts names fills the rest.
 */
export function prepareCustomResourceDefinitionForCreate(crd: CustomResourceDefinition): void {
  const storage = (crd.spec?.versions ?? []).find((v) => v.storage);
  crd.status = storage === undefined ? {} : { storedVersions: [storage.name] };
}
