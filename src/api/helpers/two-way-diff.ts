/**
 * The two-way diff of two JSON objects that both patch builders share: the JSON merge patch
 * (RFC 7386; evanphx/json-patch `CreateMergePatch`, which controller-runtime's `MergeFrom` uses)
 * and apimachinery's `strategicpatch.CreateTwoWayMergePatch` without its list directives. For
 * each field whose values differ: two objects are diffed field by field, anything else (lists
 * included) is taken whole from `after`, and a field `after` lacks is `null`.
 */
import { isPlainObject } from "../../util/index.ts";

type JsonMap = Readonly<Record<string, unknown>>;

/** How `twoWayDiff` compares values, and the fields of the top level it leaves to its caller. */
export interface TwoWayDiffOptions {
  /**
   * Whether two values of a field are the same (no entry in the patch); `undefined` stands for a
   * missing field. `jsonEqual` for a JSON merge patch; `semanticEqual` where a missing value
   * equals an empty one, as Go decodes both.
   */
  readonly equal: (before: unknown, after: unknown) => boolean;
  /**
   * The patch entries of a top-level field whose values differ, in place of the default ones;
   * `undefined` to keep the default. Lets a strategic merge patch merge keyed lists (entries for
   * the list and its `$setElementOrder/<field>`). Nested objects are diffed with `equal` alone.
   * @default none: every field gets the default entries
   */
  readonly diffField?: (
    field: string,
    before: unknown,
    after: unknown,
  ) => Record<string, unknown> | undefined;
}

/**
 * The patch taking `before` to `after`: changed and added fields in `after`'s order, then the
 * removed ones as `null`. Empty when every field is equal. Neither argument is modified; the
 * patch holds `after`'s values, not copies.
 */
export function twoWayDiff(
  before: JsonMap,
  after: JsonMap,
  options: TwoWayDiffOptions,
): Record<string, unknown> {
  const { equal, diffField } = options;
  const patch: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(after)) {
    const old = before[field];
    if (equal(old, value)) continue;
    const entries = diffField?.(field, old, value);
    if (entries !== undefined) {
      Object.assign(patch, entries);
    } else if (isPlainObject(old) && isPlainObject(value)) {
      patch[field] = twoWayDiff(old, value, { equal });
    } else {
      patch[field] = value === undefined ? null : value;
    }
  }
  for (const field of Object.keys(before)) {
    if (!(field in after) && !equal(before[field], undefined)) patch[field] = null;
  }
  return patch;
}
