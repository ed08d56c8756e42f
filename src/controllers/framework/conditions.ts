/**
 * Status conditions as the apps controllers keep them (`SetDeploymentCondition`,
 * `SetCondition` for ReplicaSets): one condition per type, at the end of the list when it
 * changes, untouched when status and reason are unchanged.
 */

/** The apps/v1 and core/v1 condition shape (lastUpdateTime only on Deployments). */
export interface StatusCondition {
  type: string;
  status: "True" | "False" | "Unknown";
  lastUpdateTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** The condition of `type`, if present. */
export function findCondition<C extends { readonly type: string }>(
  conditions: readonly C[] | undefined,
  type: string,
): C | undefined {
  return conditions?.find((c) => c.type === type);
}

/**
 * Returns `conditions` with `next` in place of the condition of the same type. Nothing changes
 * (the same array is returned) when the current condition has the same status and reason; when
 * only the status is the same, the current `lastTransitionTime` is kept. The changed condition
 * moves to the end, as upstream's filter-and-append does.
 */
export function setCondition<C extends StatusCondition>(
  conditions: readonly C[] | undefined,
  next: C,
): C[] {
  const list = [...(conditions ?? [])];
  const current = findCondition(list, next.type);
  if (current !== undefined && current.status === next.status && current.reason === next.reason) {
    return list;
  }
  const condition = { ...next };
  if (current !== undefined && current.status === next.status) {
    if (current.lastTransitionTime === undefined) delete condition.lastTransitionTime;
    else condition.lastTransitionTime = current.lastTransitionTime;
  }
  return [...list.filter((c) => c.type !== next.type), condition];
}

/** Returns `conditions` without the condition of `type`. */
export function removeCondition<C extends { readonly type: string }>(
  conditions: readonly C[] | undefined,
  type: string,
): C[] {
  return (conditions ?? []).filter((c) => c.type !== type);
}
