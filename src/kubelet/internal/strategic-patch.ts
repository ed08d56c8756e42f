/**
 * Two-way strategic merge patches of the statuses a kubelet writes, as upstream's
 * `strategicpatch.CreateTwoWayMergePatch` builds them: changed fields, `null` for removed ones,
 * maps diffed key by key, lists merged by key (changed and new elements with their key,
 * `$patch: delete` for removed ones, `$setElementOrder/<field>` whenever the list changed),
 * other lists replaced whole. Values compare as Go's JSON does: a missing value equals an empty
 * one (`Semantic.DeepEqual`).
 */
import { semanticEqual, twoWayDiff } from "../../api/index.ts";
import { isPlainObject } from "../../util/index.ts";

type JsonMap = Readonly<Record<string, unknown>>;

/** Changed keys of `next` over `old`, removed ones `null`; lists named in `mergeKeys` merge by key. */
function diffMaps(
  old: JsonMap,
  next: JsonMap,
  mergeKeys: Readonly<Record<string, string>>,
): Record<string, unknown> {
  return twoWayDiff(old, next, {
    equal: semanticEqual,
    diffField: (field, before, value) => {
      const key = mergeKeys[field];
      if (key === undefined || !Array.isArray(value)) return undefined;
      return diffMergeList(field, key, Array.isArray(before) ? before : [], value);
    },
  });
}

/** `diffListsOfMaps` for `field`, a list of maps merged by `key`: its patch entries. */
function diffMergeList(
  field: string,
  key: string,
  old: readonly unknown[],
  next: readonly unknown[],
): Record<string, unknown> {
  const keyOf = (element: unknown): unknown => (isPlainObject(element) ? element[key] : undefined);
  const changes: unknown[] = [];
  for (const element of next) {
    if (!isPlainObject(element)) continue;
    const before = old.find((o) => keyOf(o) === element[key]);
    if (before === undefined || !isPlainObject(before)) {
      changes.push(element);
      continue;
    }
    const diff = diffMaps(before, element, {});
    if (Object.keys(diff).length > 0) changes.push({ ...diff, [key]: element[key] });
  }
  for (const element of old) {
    const k = keyOf(element);
    if (!next.some((n) => keyOf(n) === k)) changes.push({ $patch: "delete", [key]: k });
  }
  if (changes.length === 0) return {};
  return {
    [`$setElementOrder/${field}`]: next.map((element) => ({ [key]: keyOf(element) })),
    [field]: changes,
  };
}

/**
 * The patch taking `old` to `next` (both one object level, such as a status); `mergeKeys` names
 * the lists of that level merged by key (`{ conditions: "type" }`). Empty when they are equal.
 */
export function twoWayMergePatch(
  old: object | undefined,
  next: object,
  mergeKeys: Readonly<Record<string, string>>,
): Record<string, unknown> {
  return diffMaps((old ?? {}) as JsonMap, next as JsonMap, mergeKeys);
}
