/**
 * The KindDefinition a custom resource is served with, built from its CRD and one version:
 * names, scope, subresources, selectable fields, schema-driven defaulting and validation.
 */
import { externalDefinitions } from "../../apps/v1/core-adapter.ts";
import { objectMetaName } from "../../apps/v1/schema-helpers.ts";
import type { FieldError, FieldErrorList } from "../../meta/field-errors.ts";
import { fieldPath } from "../../meta/field-path.ts";
import type { KubeObject } from "../../meta/types.ts";
import { ref, type Schema } from "../../schema/schema.ts";
import { allVerbs, type KindDefinition, type ScaleSubresource } from "../../scheme.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../validation/meta.ts";
import type { CustomResourceDefinition, JSONSchemaProps } from "./crd.ts";
import { applySchemaDefaults } from "./custom-resource-defaults.ts";
import { ratchetListTypeDuplicates } from "./custom-resource-list-types.ts";
import {
  ratchetedSchemaErrors,
  validateUpdateAgainstSchema,
} from "./custom-resource-ratcheting.ts";
import { validateAgainstSchema } from "./custom-resource-validation.ts";
import { schemaAt } from "./schema-checks.ts";

const preserveAll: JSONSchemaProps = {
  type: "object",
  "x-kubernetes-preserve-unknown-fields": true,
};

/** Reads a simple `.a.b.c` JSON path from an object; `undefined` when any step is missing. */
export function readJsonPath(obj: unknown, path: string): unknown {
  let current: unknown = obj;
  for (const step of path.split(".").filter((s) => s !== "")) {
    if (typeof current !== "object" || current === null || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[step];
  }
  return current;
}

/**
 * An error of the status schema's validator placed under `status`: upstream validates a status
 * write against the status schema alone and puts its errors under `status` (the detail keeps
 * the validator's own path: `status.replicas: Invalid value: "string": replicas in body …`).
 */
function underStatus(error: FieldError): FieldError {
  const field = error.field === "" || error.field === "<nil>" ? "status" : `status.${error.field}`;
  return { ...error, field };
}

function fieldValueText(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * Builds the served definition of `crd` at `version`. Throws RangeError when the CRD has no such
 * version (a programming error: callers pick versions from the CRD).
 */
export function kindDefinitionForCrd(
  crd: CustomResourceDefinition,
  version: string,
): KindDefinition {
  const spec = crd.spec;
  const v = spec.versions.find((x) => x.name === version);
  if (v === undefined) {
    throw new RangeError(
      `Cannot serve CustomResourceDefinition "${crd.metadata.name ?? ""}": no version "${version}"`,
    );
  }
  const names = spec.names;
  const kind = names.kind;
  const namespaced = spec.scope === "Namespaced";
  const userSchema: JSONSchemaProps = v.schema?.openAPIV3Schema ?? preserveAll;
  const published: Schema = {
    ...structuredClone(userSchema),
    properties: {
      ...structuredClone(userSchema.properties ?? {}),
      apiVersion: {
        type: "string",
        description:
          "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values.",
      },
      kind: {
        type: "string",
        description:
          "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase.",
      },
      metadata: ref(objectMetaName, "Standard object's metadata."),
    },
    "x-kubernetes-group-version-kind": [{ group: spec.group, version, kind }],
  };
  const nameSchema = schemaAt(schemaAt(userSchema.properties?.["metadata"])?.properties?.["name"]);
  const statusSchema = schemaAt(userSchema.properties?.["status"]);

  const validateName = (obj: KubeObject): FieldErrorList =>
    nameSchema === undefined || obj.metadata.name === undefined
      ? []
      : validateAgainstSchema(obj.metadata.name, nameSchema, fieldPath("metadata", "name"));
  const validateBody = (obj: KubeObject): FieldErrorList => [
    ...validateAgainstSchema(obj, userSchema),
    ...validateName(obj),
  ];
  // Updates are ratcheted (KEP-4008): errors in what did not change are not reported. The name
  // cannot change on update, so its schema errors never are.
  const validateBodyUpdate = (obj: KubeObject, old: KubeObject): FieldErrorList => [
    ...validateUpdateAgainstSchema(obj, old, userSchema),
    ...(obj.metadata.name === old.metadata.name ? [] : validateName(obj)),
  ];
  // As upstream's status strategy: a status write checks `status` (if sent) against the status
  // schema alone, ratcheted, and the list-type invariants of the whole object, ratcheted.
  const validateStatusBody = (obj: KubeObject, old: KubeObject): FieldErrorList => {
    const status = obj["status"];
    if (statusSchema === undefined || status === undefined) return [];
    const errs = ratchetedSchemaErrors(status, old["status"], statusSchema, undefined, false).map(
      underStatus,
    );
    errs.push(
      ...ratchetListTypeDuplicates(
        { value: status, schema: statusSchema, path: fieldPath("status") },
        { old, schema: userSchema },
      ),
    );
    return errs;
  };

  const scale = v.subresources?.scale;
  let scaleSubresource: ScaleSubresource | undefined;
  if (scale !== undefined) {
    scaleSubresource =
      scale.labelSelectorPath === undefined || scale.labelSelectorPath === ""
        ? { specReplicasPath: scale.specReplicasPath, statusReplicasPath: scale.statusReplicasPath }
        : {
            specReplicasPath: scale.specReplicasPath,
            statusReplicasPath: scale.statusReplicasPath,
            labelSelectorPath: scale.labelSelectorPath,
          };
  }
  const subresources: KindDefinition["subresources"] =
    scaleSubresource === undefined
      ? { status: v.subresources?.status !== undefined }
      : { status: v.subresources?.status !== undefined, scale: scaleSubresource };

  const definition: KindDefinition = {
    group: spec.group,
    version,
    kind,
    listKind: names.listKind ?? `${kind}List`,
    resource: names.plural,
    singular: names.singular ?? kind.toLowerCase(),
    namespaced,
    shortNames: names.shortNames ?? [],
    categories: names.categories ?? [],
    verbs: allVerbs,
    schema: { schema: published, definitions: externalDefinitions() },
    tracksGeneration: true,
    subresources,
    applyDefaults: (obj) => applySchemaDefaults(obj, userSchema),
    validate: (obj) => [
      ...validateObjectMeta(obj.metadata, { namespaced }, fieldPath("metadata")),
      ...validateBody(obj),
    ],
    validateUpdate: (obj, old) => [
      ...validateObjectMetaUpdate(obj.metadata, old.metadata, fieldPath("metadata")),
      ...validateBodyUpdate(obj, old),
    ],
    validateStatusUpdate: (obj, old) => [
      ...validateObjectMetaUpdate(obj.metadata, old.metadata, fieldPath("metadata")),
      ...validateStatusBody(obj, old),
    ],
  };
  const selectable = v.selectableFields ?? [];
  if (selectable.length === 0) return definition;
  return {
    ...definition,
    selectableFields: (obj) =>
      Object.fromEntries(
        selectable.map((f) => [
          f.jsonPath.replace(/^\./, ""),
          fieldValueText(readJsonPath(obj, f.jsonPath)),
        ]),
      ),
  };
}
