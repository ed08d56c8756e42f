import { badRequest, expired, type KubeObject } from "../../api/index.ts";

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

/** Parses `limit`: a non-negative integer, 0 meaning no limit. */
export function parseLimit(text: string | null): number {
  if (text === null || text === "") return 0;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) throw badRequest(`invalid limit: ${JSON.stringify(text)}`);
  return n;
}

/** Parses a resourceVersion query value: undefined when unset, a revision otherwise. */
export function parseResourceVersion(text: string | null): number | undefined {
  if (text === null || text === "") return undefined;
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n)) {
    throw badRequest(`invalid resource version: ${JSON.stringify(text)}`);
  }
  return n;
}

/** The 410 for a revision older than what is still readable. */
export function tooOldResourceVersion(requested: number, oldest: number): never {
  throw expired(`too old resource version: ${requested} (${oldest})`);
}

/** A filter over cached objects: namespace plus label and field selectors. */
export type ObjectPredicate = (object: KubeObject) => boolean;
