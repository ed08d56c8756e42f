/** `apiextensions.k8s.io/v1` CustomResourceDefinition validation, with upstream's messages. */
import {
  type FieldErrorList,
  forbiddenField,
  invalid,
  notSupported,
  required,
} from "../../meta/field-errors.ts";
import { type FieldPath, fieldPath } from "../../meta/field-path.ts";
import {
  validateImmutableField,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from "../../validation/meta.ts";
import { isDns1035Label, isDns1123Subdomain } from "../../validation/names.ts";
import {
  type CustomResourceColumnDefinition,
  type CustomResourceConversion,
  type CustomResourceDefinition,
  type CustomResourceDefinitionNames,
  type CustomResourceDefinitionSpec,
  type CustomResourceDefinitionVersion,
  type CustomResourceSubresources,
  isCrdConditionTrue,
} from "./crd.ts";
import { isStructuralSchema } from "./structural.ts";

const printerColumnTypes = ["boolean", "date", "integer", "number", "string"];
const printerColumnFormats = [
  "byte",
  "date",
  "date-time",
  "double",
  "float",
  "int32",
  "int64",
  "password",
];

export function validateCustomResourceDefinition(crd: CustomResourceDefinition): FieldErrorList {
  const spec = crd.spec ?? ({} as CustomResourceDefinitionSpec);
  const wanted = `${spec.names?.plural ?? ""}.${spec.group ?? ""}`;
  const nameValidator = (name: string): string[] => {
    const errs = isDns1123Subdomain(name);
    if (name !== wanted) errs.push(`must be spec.names.plural+"."+spec.group`);
    return errs;
  };
  const errs = validateObjectMeta(
    crd.metadata,
    { namespaced: false, nameValidator },
    fieldPath("metadata"),
  );
  errs.push(...validateCrdSpec(spec, fieldPath("spec")));
  errs.push(...validateCrdStatus(crd));
  return errs;
}

export function validateCustomResourceDefinitionUpdate(
  crd: CustomResourceDefinition,
  old: CustomResourceDefinition,
): FieldErrorList {
  const errs = validateObjectMetaUpdate(crd.metadata, old.metadata, fieldPath("metadata"));
  const spec = crd.spec ?? ({} as CustomResourceDefinitionSpec);
  const oldSpec = old.spec ?? ({} as CustomResourceDefinitionSpec);
  const p = fieldPath("spec");
  errs.push(...validateCrdSpec(spec, p));
  if (isCrdConditionTrue(old, "Established")) {
    errs.push(...validateImmutableField(spec.scope, oldSpec.scope, p.child("scope")));
    errs.push(
      ...validateImmutableField(spec.names?.kind, oldSpec.names?.kind, p.child("names", "kind")),
    );
  }
  errs.push(...validateImmutableField(spec.group, oldSpec.group, p.child("group")));
  errs.push(
    ...validateImmutableField(
      spec.names?.plural,
      oldSpec.names?.plural,
      p.child("names", "plural"),
    ),
  );
  errs.push(...validateCrdStatus(crd));
  return errs;
}

function validateCrdStatus(crd: CustomResourceDefinition): FieldErrorList {
  const status = crd.status ?? {};
  const errs = validateNames(status.acceptedNames, fieldPath("status", "acceptedNames"));
  errs.push(...validateStoredVersions(status.storedVersions ?? [], crd.spec?.versions ?? []));
  return errs;
}

/** Every stored version must still be in spec, and the storage version must be stored. */
function validateStoredVersions(
  stored: readonly string[],
  versions: readonly CustomResourceDefinitionVersion[],
): FieldErrorList {
  const path = fieldPath("status", "storedVersions");
  if (stored.length === 0) return [invalid(path, stored, "must have at least one stored version")];
  const errs: FieldErrorList = [];
  const remaining = new Map(stored.map((v, i) => [v, i]));
  for (const v of versions) {
    if (v.storage && !remaining.has(v.name)) {
      errs.push(invalid(path, v, `must have the storage version ${v.name}`));
    }
    remaining.delete(v.name);
  }
  for (const [v, i] of remaining)
    errs.push(invalid(path.index(i), v, "must appear in spec.versions"));
  return errs;
}

export function validateCrdSpec(
  spec: CustomResourceDefinitionSpec,
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  const group = spec.group ?? "";
  if (group === "") {
    errs.push(required(path.child("group")));
  } else if (isDns1123Subdomain(group).length > 0) {
    errs.push(invalid(path.child("group"), group, isDns1123Subdomain(group).join(",")));
  } else if (group.split(".").length < 2) {
    errs.push(invalid(path.child("group"), group, "should be a domain with at least one dot"));
  }
  const scope: unknown = spec.scope;
  if (scope === undefined || scope === "") {
    errs.push(required(path.child("scope")));
  } else if (scope !== "Cluster" && scope !== "Namespaced") {
    errs.push(notSupported(path.child("scope"), scope, ["Cluster", "Namespaced"]));
  }
  if (spec.preserveUnknownFields === true) {
    errs.push(
      invalid(
        path.child("preserveUnknownFields"),
        true,
        "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead",
      ),
    );
  }
  const versions = spec.versions ?? [];
  versions.forEach((v, i) => {
    if (v.schema?.openAPIV3Schema === undefined) {
      errs.push(
        required(
          path.child("versions").index(i).child("schema", "openAPIV3Schema"),
          "schemas are required",
        ),
      );
    }
  });
  let storageCount = 0;
  const seen = new Set<string>();
  let unique = true;
  versions.forEach((v, i) => {
    const vp = path.child("versions").index(i);
    if (v.storage) storageCount++;
    if (seen.has(v.name)) unique = false;
    seen.add(v.name);
    const nameErrs = isDns1035Label(v.name ?? "");
    if (nameErrs.length > 0) errs.push(invalid(vp.child("name"), v.name ?? "", nameErrs.join(",")));
    errs.push(...validateVersion(v, vp));
  });
  if (!unique)
    errs.push(invalid(path.child("versions"), versions, "must contain unique version names"));
  if (storageCount !== 1) {
    errs.push(
      invalid(
        path.child("versions"),
        versions,
        "must have exactly one version marked as storage version",
      ),
    );
  }
  const names = spec.names ?? ({} as CustomResourceDefinitionNames);
  for (const key of ["plural", "singular", "kind", "listKind"] as const) {
    if ((names[key] ?? "") === "") errs.push(required(path.child("names", key)));
  }
  errs.push(...validateNames(names, path.child("names")));
  if (spec.conversion !== undefined)
    errs.push(...validateConversion(spec.conversion, path.child("conversion")));
  return errs;
}

function validateVersion(v: CustomResourceDefinitionVersion, path: FieldPath): FieldErrorList {
  const errs: FieldErrorList = [];
  if (v.deprecationWarning !== undefined) {
    const warning = v.deprecationWarning;
    const p = path.child("deprecationWarning");
    if (v.deprecated !== true)
      errs.push(invalid(p, warning, "can only be set for deprecated versions"));
    else if (warning.length > 256) errs.push(invalid(p, warning, "must be <= 256 characters long"));
    else if (warning.length === 0) errs.push(invalid(p, warning, "must not be an empty string"));
  }
  const schema = v.schema?.openAPIV3Schema;
  if (schema !== undefined)
    errs.push(...isStructuralSchema(schema, path.child("schema", "openAPIV3Schema")));
  errs.push(...validateSubresources(v.subresources, path.child("subresources")));
  (v.additionalPrinterColumns ?? []).forEach((col, i) => {
    errs.push(...validateColumn(col, path.child("additionalPrinterColumns").index(i)));
  });
  return errs;
}

/** `ValidateCustomResourceDefinitionNames`: DNS-1035 labels (kinds may be mixed case). */
export function validateNames(
  names: CustomResourceDefinitionNames | undefined,
  path: FieldPath,
): FieldErrorList {
  if (names === undefined) return [];
  const errs: FieldErrorList = [];
  for (const key of ["plural", "singular"] as const) {
    const value = names[key] ?? "";
    const msgs = isDns1035Label(value);
    if (value !== "" && msgs.length > 0) errs.push(invalid(path.child(key), value, msgs.join(",")));
  }
  for (const key of ["kind", "listKind"] as const) {
    const value = names[key] ?? "";
    const msgs = isDns1035Label(value.toLowerCase());
    if (value !== "" && msgs.length > 0) {
      errs.push(
        invalid(
          path.child(key),
          value,
          `may have mixed case, but should otherwise match: ${msgs.join(",")}`,
        ),
      );
    }
  }
  (names.shortNames ?? []).forEach((short, i) => {
    const msgs = isDns1035Label(short);
    if (msgs.length > 0)
      errs.push(invalid(path.child("shortNames").index(i), short, msgs.join(",")));
  });
  if ((names.kind ?? "") !== "" && names.kind === names.listKind) {
    errs.push(
      invalid(path.child("listKind"), names.listKind, "kind and listKind may not be the same"),
    );
  }
  (names.categories ?? []).forEach((category, i) => {
    const msgs = isDns1035Label(category);
    if (msgs.length > 0)
      errs.push(invalid(path.child("categories").index(i), category, msgs.join(",")));
  });
  return errs;
}

/** `validateSimpleJSONPath`: `.a.b`, nothing fancier. */
function simpleJsonPath(value: string, path: FieldPath): FieldErrorList {
  if (value === "") return [invalid(path, value, "must not be empty")];
  if (!value.startsWith("."))
    return [invalid(path, value, "must be a simple json path starting with .")];
  return [];
}

function validateSubresources(
  sub: CustomResourceSubresources | undefined,
  path: FieldPath,
): FieldErrorList {
  const scale = sub?.scale;
  if (scale === undefined) return [];
  const errs: FieldErrorList = [];
  const paths = [
    ["specReplicasPath", scale.specReplicasPath, ".spec.", "should be a json path under .spec"],
    [
      "statusReplicasPath",
      scale.statusReplicasPath,
      ".status.",
      "should be a json path under .status",
    ],
  ] as const;
  for (const [key, value, prefix, message] of paths) {
    const p = path.child(`scale.${key}`);
    if ((value ?? "") === "") {
      errs.push(required(p));
      continue;
    }
    const jsonErrs = simpleJsonPath(value, p);
    if (jsonErrs.length > 0) errs.push(...jsonErrs);
    else if (!value.startsWith(prefix)) errs.push(invalid(p, value, message));
  }
  const selector = scale.labelSelectorPath ?? "";
  if (selector !== "") {
    const p = path.child("scale.labelSelectorPath");
    const jsonErrs = simpleJsonPath(selector, p);
    if (jsonErrs.length > 0) errs.push(...jsonErrs);
    else if (!selector.startsWith(".spec.") && !selector.startsWith(".status.")) {
      errs.push(invalid(p, selector, "should be a json path under either .spec or .status"));
    }
  }
  return errs;
}

function validateColumn(col: CustomResourceColumnDefinition, path: FieldPath): FieldErrorList {
  const errs: FieldErrorList = [];
  if ((col.name ?? "") === "") errs.push(required(path.child("name")));
  const type = col.type ?? "";
  if (type === "") {
    errs.push(required(path.child("type"), `must be one of ${printerColumnTypes.join(",")}`));
  } else if (!printerColumnTypes.includes(type)) {
    errs.push(notSupported(path.child("type"), type, printerColumnTypes));
  }
  if ((col.format ?? "") !== "" && !printerColumnFormats.includes(col.format ?? "")) {
    errs.push(notSupported(path.child("format"), col.format, printerColumnFormats));
  }
  const jsonPath = col.jsonPath ?? "";
  if (jsonPath === "") errs.push(required(path.child("JSONPath")));
  else errs.push(...simpleJsonPath(jsonPath, path.child("JSONPath")));
  return errs;
}

function validateConversion(conversion: CustomResourceConversion, path: FieldPath): FieldErrorList {
  const errs: FieldErrorList = [];
  const strategy: unknown = conversion.strategy;
  if (strategy === undefined || strategy === "") {
    errs.push(required(path.child("strategy")));
  } else if (strategy !== "None" && strategy !== "Webhook") {
    errs.push(notSupported(path.child("strategy"), strategy, ["None", "Webhook"]));
  }
  const clientConfig = conversion.webhook?.clientConfig;
  const reviewVersions = conversion.webhook?.conversionReviewVersions ?? [];
  if (strategy === "Webhook") {
    if (clientConfig === undefined) {
      errs.push(
        required(path.child("webhookClientConfig"), "required when strategy is set to Webhook"),
      );
    } else if ((clientConfig.url === undefined) === (clientConfig.service === undefined)) {
      errs.push(
        required(path.child("webhookClientConfig"), "exactly one of url or service is required"),
      );
    }
    const rp = path.child("conversionReviewVersions");
    if (reviewVersions.length === 0) {
      errs.push(required(rp));
    } else {
      const seen = new Set<string>();
      reviewVersions.forEach((v, i) => {
        if (seen.has(v)) errs.push(invalid(rp.index(i), v, "duplicate version"));
        seen.add(v);
      });
      if (!reviewVersions.some((v) => v === "v1" || v === "v1beta1")) {
        errs.push(invalid(rp, reviewVersions, "must include at least one of v1, v1beta1"));
      }
    }
  } else {
    if (clientConfig !== undefined) {
      errs.push(
        forbiddenField(
          path.child("webhookClientConfig"),
          "should not be set when strategy is not set to Webhook",
        ),
      );
    }
    if (reviewVersions.length > 0) {
      errs.push(
        forbiddenField(
          path.child("conversionReviewVersions"),
          "should not be set when strategy is not set to Webhook",
        ),
      );
    }
  }
  return errs;
}
