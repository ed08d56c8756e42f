import {
  badRequest,
  type DeleteOptions,
  type FieldError,
  FieldPath,
  forbiddenField,
  invalid,
  invalidObject,
  notSupported,
  required,
  type Schema,
  tooLong,
} from "../../api/index.ts";
import { parseGoBool } from "../http/request-info.ts";
import type { WriteContext } from "../registry/generic/store.ts";
import { optionalInt64 } from "./list-options.ts";
import type { RequestScope } from "./scope.ts";
import { typeMismatchOf } from "./type-check.ts";

/** The options kind a write decodes from its query: upstream validates each the same way. */
export type WriteOptionsKind = "CreateOptions" | "UpdateOptions" | "PatchOptions";

const applyPatchType = "application/apply-patch+yaml";
const maxFieldManagerLength = 128;

/** Go's `%#v` of a `[]string`, as `field.NotSupported` prints the dryRun values. */
function goStringSlice(values: readonly string[]): string {
  return `[]string{${values.map((v) => JSON.stringify(v)).join(", ")}}`;
}

/** `dryRun: Unsupported value: []string{"x"}: supported values: "All"`, if any value is not All. */
function dryRunErrors(values: readonly string[]): FieldError[] {
  if (values.every((v) => v === "All")) return [];
  return [
    {
      type: "FieldValueNotSupported",
      field: "dryRun",
      detail: `${goStringSlice(values)}: supported values: "All"`,
    },
  ];
}

/** Whether a rune is printable in Go's `unicode.IsPrint` sense (letters … symbols, ASCII space). */
function isPrintable(char: string): boolean {
  return char === " " || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(char);
}

/** `ValidateFieldManager`: at most 128 bytes, printable characters only. */
function fieldManagerErrors(manager: string): FieldError[] {
  const path = FieldPath.of("fieldManager");
  const errors: FieldError[] = [];
  if (Buffer.byteLength(manager) > maxFieldManagerLength) {
    errors.push(tooLong(path, maxFieldManagerLength));
  }
  let offset = 0;
  for (const char of manager) {
    if (!isPrintable(char)) {
      const code = (char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");
      errors.push(invalid(path, manager, `invalid character U+${code} (at position ${offset})`));
    }
    offset += Buffer.byteLength(char);
  }
  return errors;
}

/**
 * Upstream's `ValidateCreateOptions`, `ValidateUpdateOptions` and `ValidatePatchOptions` over the
 * query: a 422 `CreateOptions.meta.k8s.io "" is invalid: …` for a bad dryRun, fieldValidation or
 * fieldManager (and, for patches, `force` outside apply or apply without a fieldManager).
 */
export function validateWriteOptions(
  query: URLSearchParams,
  kind: WriteOptionsKind,
  patchType = "",
): void {
  const manager = query.get("fieldManager") ?? "";
  const errors: FieldError[] = [];
  if (kind === "PatchOptions") {
    if (patchType !== applyPatchType) {
      if (query.has("force")) {
        errors.push(
          forbiddenField(FieldPath.of("force"), "may not be specified for non-apply patch"),
        );
      }
    } else if (manager === "") {
      errors.push(required(FieldPath.of("fieldManager"), "is required for apply patch"));
    }
  }
  errors.push(...fieldManagerErrors(manager));
  errors.push(...dryRunErrors(query.getAll("dryRun")));
  const validation = query.get("fieldValidation") ?? "";
  if (!["", "Ignore", "Strict", "Warn"].includes(validation)) {
    errors.push(
      notSupported(FieldPath.of("fieldValidation"), validation, ["", "Ignore", "Strict", "Warn"]),
    );
  }
  if (errors.length > 0) throw invalidObject({ group: "meta.k8s.io", kind }, "", errors);
}

/** `dryRun=All` (the only value upstream accepts). */
export function isDryRun(query: URLSearchParams): boolean {
  const values = query.getAll("dryRun");
  if (dryRunErrors(values).length > 0) {
    throw badRequest(
      `Invalid dryRun parameter: dryRun: Unsupported value: ${goStringSlice(values)}: supported values: "All"`,
    );
  }
  return values.length > 0;
}

/** The field manager: the `fieldManager` query, else the User-Agent's first token, as upstream. */
export function fieldManagerOf(scope: RequestScope): string {
  const explicit = scope.query.get("fieldManager");
  if (explicit !== null && explicit !== "") {
    if (Buffer.byteLength(explicit) > maxFieldManagerLength)
      throw badRequest("fieldManager: Too long: may not be more than 128 bytes");
    return explicit;
  }
  const agent = scope.req.headers["user-agent"] ?? "";
  const first = agent.split("/")[0]?.trim() ?? "";
  return first === "" ? "unknown" : first.slice(0, 128);
}

export function writeContextOf(
  scope: RequestScope,
  subresource: string,
  dryRun?: boolean,
): WriteContext {
  return {
    user: scope.user,
    dryRun: dryRun ?? isDryRun(scope.query),
    fieldManager: fieldManagerOf(scope),
    warnings: scope.warnings,
    subresource,
    auditAnnotations: scope.audit?.annotations,
    signal: scope.signal,
  };
}

/** The wire shape of `meta.k8s.io/v1` DeleteOptions, for decoding a body with Go's type errors. */
const deleteOptionsSchema: Schema = {
  type: "object",
  properties: {
    apiVersion: { type: "string" },
    kind: { type: "string" },
    gracePeriodSeconds: { type: "integer", format: "int64" },
    preconditions: {
      type: "object",
      properties: { uid: { type: "string" }, resourceVersion: { type: "string" } },
    },
    orphanDependents: { type: "boolean" },
    propagationPolicy: { type: "string" },
    dryRun: { type: "array", items: { type: "string" } },
    ignoreStoreReadErrorWithClusterBreakingPotential: { type: "boolean" },
  },
};

/**
 * DeleteOptions from the body (kubectl's way) or, without a body, from the query parameters, as
 * upstream decodes one or the other; then upstream's `ValidateDeleteOptions` (422).
 */
export function deleteOptionsOf(
  query: URLSearchParams,
  body: Record<string, unknown> | undefined,
): DeleteOptions {
  const options = body === undefined ? deleteOptionsFromQuery(query) : deleteOptionsFromBody(body);
  const errors: FieldError[] = [];
  const policy = options.propagationPolicy as string | undefined;
  if (options.orphanDependents !== undefined && policy !== undefined) {
    errors.push(
      invalid(
        FieldPath.of("propagationPolicy"),
        policy,
        "orphanDependents and deletionPropagation cannot be both set",
      ),
    );
  }
  if (
    policy !== undefined &&
    policy !== "Foreground" &&
    policy !== "Background" &&
    policy !== "Orphan"
  ) {
    errors.push(
      notSupported(FieldPath.of("propagationPolicy"), policy, [
        "Foreground",
        "Background",
        "Orphan",
        "nil",
      ]),
    );
  }
  errors.push(...dryRunErrors(options.dryRun ?? []));
  if (errors.length > 0) {
    throw invalidObject({ group: "meta.k8s.io", kind: "DeleteOptions" }, "", errors);
  }
  if (options.gracePeriodSeconds !== undefined && options.gracePeriodSeconds < 0)
    options.gracePeriodSeconds = 1;
  return options;
}

function deleteOptionsFromQuery(query: URLSearchParams): DeleteOptions {
  const options: DeleteOptions = {};
  const grace = optionalInt64(query, "gracePeriodSeconds");
  if (grace !== undefined) options.gracePeriodSeconds = grace;
  const policy = query.get("propagationPolicy");
  if (policy !== null)
    options.propagationPolicy = policy as NonNullable<DeleteOptions["propagationPolicy"]>;
  const orphan = parseGoBool(query.get("orphanDependents"));
  if (orphan !== undefined) options.orphanDependents = orphan;
  const dryRun = query.getAll("dryRun");
  if (dryRun.length > 0) options.dryRun = dryRun;
  return options;
}

function deleteOptionsFromBody(body: Record<string, unknown>): DeleteOptions {
  const kind = body["kind"];
  if (kind !== undefined && kind !== "" && kind !== "DeleteOptions") {
    throw badRequest(
      `no kind ${JSON.stringify(String(kind))} is registered for the DeleteOptions body: send kind DeleteOptions`,
    );
  }
  const mismatch = typeMismatchOf(body, deleteOptionsSchema, {}, "DeleteOptions");
  if (mismatch !== undefined) throw badRequest(mismatch);
  const options: DeleteOptions = {};
  const grace = body["gracePeriodSeconds"];
  if (typeof grace === "number") options.gracePeriodSeconds = grace;
  const policy = body["propagationPolicy"];
  if (typeof policy === "string") {
    options.propagationPolicy = policy as NonNullable<DeleteOptions["propagationPolicy"]>;
  }
  const orphan = body["orphanDependents"];
  if (typeof orphan === "boolean") options.orphanDependents = orphan;
  const dryRun = body["dryRun"];
  if (Array.isArray(dryRun)) options.dryRun = dryRun.map(String);
  const pre = body["preconditions"];
  if (typeof pre === "object" && pre !== null) {
    const p = pre as Record<string, unknown>;
    options.preconditions = {};
    if (typeof p["uid"] === "string") options.preconditions.uid = p["uid"];
    if (typeof p["resourceVersion"] === "string")
      options.preconditions.resourceVersion = p["resourceVersion"];
  }
  return options;
}
