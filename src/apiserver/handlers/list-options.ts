import {
  badRequest,
  expired,
  type FieldError,
  FieldPath,
  forbiddenField,
  invalidObject,
  type KubeObject,
  notSupported,
} from "../../api/index.ts";

/** Upstream's message for a continue token whose revision has been compacted. */
export const continueExpiredMessage =
  "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.";

/** A decoded continue token: the list's revision and the first key of the next page. */
export interface ContinueToken {
  readonly revision: number;
  readonly start: string;
}

/** Encodes a continue token as upstream does: base64 of `{"v","rv","start"}`. */
export function encodeContinue(token: ContinueToken): string {
  return Buffer.from(
    JSON.stringify({ v: "meta.k8s.io/v1", rv: token.revision, start: token.start }),
  ).toString("base64url");
}

/** Decodes a continue token, with upstream's 400 for a malformed one. */
export function decodeContinue(text: string): ContinueToken {
  try {
    const value = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as Record<
      string,
      unknown
    >;
    if (value["v"] !== "meta.k8s.io/v1") throw new SyntaxError("unknown version");
    const rv = value["rv"];
    const start = value["start"];
    if (typeof rv !== "number" || typeof start !== "string" || rv <= 0) {
      throw new SyntaxError("bad fields");
    }
    return { revision: rv, start };
  } catch {
    throw badRequest(
      "continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)",
    );
  }
}

/**
 * Go's `strconv.ParseInt(text, 10, 64)`, which decodes every integer query parameter, with its
 * error as the 400 message (`strconv.ParseInt: parsing "x": invalid syntax`).
 */
export function parseInt64(text: string): number {
  if (!/^[+-]?\d+$/.test(text)) {
    throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(text)}: invalid syntax`);
  }
  const value = BigInt(text);
  if (value > 9223372036854775807n || value < -9223372036854775808n) {
    throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(text)}: value out of range`);
  }
  return Number(value);
}

/** An optional integer query parameter: `undefined` when absent. */
export function optionalInt64(query: URLSearchParams, name: string): number | undefined {
  const text = query.get(name);
  return text === null ? undefined : parseInt64(text);
}

/** `limit`: 0 or less means no limit, as upstream's storage treats it. */
export function parseLimit(text: string | null): number {
  if (text === null) return 0;
  return Math.max(0, parseInt64(text));
}

/**
 * Parses a resourceVersion query value: undefined when unset, a revision otherwise. Upstream
 * reports a non-numeric one with this message but as a 500 (kubernetes/kubernetes#101350); gantry
 * answers 400, as the pending upstream fix does.
 */
export function parseResourceVersion(text: string | null): number | undefined {
  if (text === null || text === "") return undefined;
  if (!/^\d+$/.test(text)) {
    throw badRequest(
      `resourceVersion: Invalid value: ${JSON.stringify(text)}: strconv.ParseUint: parsing ${JSON.stringify(text)}: invalid syntax`,
    );
  }
  const n = Number(text);
  if (!Number.isSafeInteger(n)) {
    throw badRequest(
      `resourceVersion: Invalid value: ${JSON.stringify(text)}: strconv.ParseUint: parsing ${JSON.stringify(text)}: value out of range`,
    );
  }
  return n;
}

/**
 * Upstream's `ValidateListOptions`: the 422 `ListOptions.meta.k8s.io "" is invalid: …` for
 * resourceVersionMatch and sendInitialEvents combinations a list or watch does not allow.
 */
export function validateListOptions(query: URLSearchParams, watch: boolean): void {
  const match = query.get("resourceVersionMatch") ?? "";
  const rv = query.get("resourceVersion") ?? "";
  const hasContinue = (query.get("continue") ?? "") !== "";
  const sendInitialEvents = query.has("sendInitialEvents");
  const path = FieldPath.of("resourceVersionMatch");
  const errors: FieldError[] = [];
  if (watch) {
    if (sendInitialEvents && match !== "NotOlderThan") {
      errors.push(
        forbiddenField(
          path,
          "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
        ),
      );
    }
    if (match !== "") {
      if (!sendInitialEvents) {
        errors.push(
          forbiddenField(
            path,
            "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided",
          ),
        );
      }
      if (match !== "NotOlderThan") errors.push(notSupported(path, match, ["NotOlderThan"]));
      if (hasContinue) {
        errors.push(
          forbiddenField(path, "resourceVersionMatch is forbidden when continue is provided"),
        );
      }
    }
  } else {
    if (match !== "") {
      if (rv === "") {
        errors.push(
          forbiddenField(
            path,
            "resourceVersionMatch is forbidden unless resourceVersion is provided",
          ),
        );
      }
      if (hasContinue) {
        errors.push(
          forbiddenField(path, "resourceVersionMatch is forbidden when continue is provided"),
        );
      }
      if (match !== "Exact" && match !== "NotOlderThan") {
        errors.push(notSupported(path, match, ["Exact", "NotOlderThan", ""]));
      }
      if (match === "Exact" && rv === "0") {
        errors.push(
          forbiddenField(path, 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'),
        );
      }
    }
    if (sendInitialEvents) {
      errors.push(
        forbiddenField(
          FieldPath.of("sendInitialEvents"),
          "sendInitialEvents is forbidden for list",
        ),
      );
    }
  }
  if (errors.length > 0) {
    throw invalidObject({ group: "meta.k8s.io", kind: "ListOptions" }, "", errors);
  }
}

/** The 410 for a revision older than what is still readable. */
export function tooOldResourceVersion(requested: number, oldest: number): never {
  throw expired(`too old resource version: ${requested} (${oldest})`);
}

/** A filter over cached objects: namespace plus label and field selectors. */
export type ObjectPredicate = (object: KubeObject) => boolean;
