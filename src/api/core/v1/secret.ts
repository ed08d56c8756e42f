/** The Secret kind. */
import { utf8ToBase64 } from "../../../util/index.ts";
import { type FieldErrorList, invalid, required, tooLong } from "../../meta/field-errors.ts";
import { FieldPath } from "../../meta/field-path.ts";
import type { KubeObject } from "../../meta/types.ts";
import { allVerbs, type KindDefinition } from "../../scheme.ts";
import {
  validateImmutableField,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from "../../validation/meta.ts";
import { isConfigMapKey } from "../../validation/names.ts";
import { base64Length, maxDataSize, validateImmutableData } from "./config-map.ts";
import { coreSchemaRoot } from "./kind-helpers.ts";

export interface Secret extends KubeObject {
  immutable?: boolean;
  /** Values are base64-encoded on the wire. */
  data?: Record<string, string>;
  /** Write-only: merged into `data` by defaulting, never stored. */
  stringData?: Record<string, string>;
  type?: string;
}

/**
 * Type `Opaque` by default; `stringData` is merged into `data` (base64) and dropped, as the v1
 * conversion does.
 */
export function applySecretDefaults(secret: Secret): void {
  if ((secret.type ?? "") === "") secret.type = "Opaque";
  if (secret.stringData !== undefined) {
    secret.data ??= {};
    for (const [key, value] of Object.entries(secret.stringData)) {
      secret.data[key] = utf8ToBase64(value);
    }
    delete secret.stringData;
  }
}

const requiredKeys: Readonly<Record<string, readonly string[]>> = {
  "kubernetes.io/dockercfg": [".dockercfg"],
  "kubernetes.io/dockerconfigjson": [".dockerconfigjson"],
  "kubernetes.io/ssh-auth": ["ssh-privatekey"],
  "kubernetes.io/tls": ["tls.crt", "tls.key"],
};

/** `ValidateSecret`: keys, size, and the keys each well-known type needs. */
export function validateSecret(secret: Secret): FieldErrorList {
  const errs = validateObjectMeta(secret.metadata, { namespaced: true }, FieldPath.of("metadata"));
  const dataPath = FieldPath.of("data");
  const data = secret.data ?? {};
  let size = 0;
  for (const [key, value] of Object.entries(data)) {
    for (const msg of isConfigMapKey(key)) errs.push(invalid(dataPath.key(key), key, msg));
    size += base64Length(value);
  }
  if (size > maxDataSize) errs.push(tooLong(dataPath, maxDataSize));
  const type = secret.type ?? "";
  if (type === "kubernetes.io/service-account-token") {
    const name = secret.metadata.annotations?.["kubernetes.io/service-account.name"] ?? "";
    if (name === "") {
      errs.push(
        required(FieldPath.of("metadata", "annotations").key("kubernetes.io/service-account.name")),
      );
    }
  } else if (type === "kubernetes.io/basic-auth") {
    if (data["username"] === undefined && data["password"] === undefined) {
      errs.push(required(dataPath.key("username")), required(dataPath.key("password")));
    }
  } else {
    for (const key of requiredKeys[type] ?? []) {
      if (data[key] === undefined) errs.push(required(dataPath.key(key)));
    }
  }
  return errs;
}

/** `ValidateSecretUpdate`: type is immutable; immutable secrets keep their data. */
export function validateSecretUpdate(secret: Secret, old: Secret): FieldErrorList {
  const errs = validateObjectMetaUpdate(secret.metadata, old.metadata, FieldPath.of("metadata"));
  errs.push(...validateImmutableField(secret.type, old.type, FieldPath.of("type")));
  errs.push(...validateImmutableData(secret, old, []));
  errs.push(...validateSecret(secret).filter((e) => !e.field.startsWith("metadata.name")));
  return errs;
}

export const secretKind: KindDefinition<Secret> = {
  group: "",
  version: "v1",
  kind: "Secret",
  listKind: "SecretList",
  resource: "secrets",
  singular: "secret",
  namespaced: true,
  shortNames: [],
  categories: [],
  verbs: allVerbs,
  schema: coreSchemaRoot("Secret"),
  tracksGeneration: false,
  subresources: { status: false },
  applyDefaults: applySecretDefaults,
  validate: validateSecret,
  validateUpdate: validateSecretUpdate,
  selectableFields: (secret) => ({ type: secret.type ?? "" }),
};
