import type {
  CustomResourceDefinition,
  CustomResourceDefinitionCondition,
} from "../../api/index.ts";

/** The condition of `type`, if the CRD carries it. */
export function findCrdCondition(
  crd: CustomResourceDefinition,
  type: string,
): CustomResourceDefinitionCondition | undefined {
  return (crd.status?.conditions ?? []).find((c) => c.type === type);
}

/**
 * `apihelpers.SetCRDCondition`: adds the condition, or replaces the one of the same type. The
 * transition time is `now` when the status changes and kept otherwise. Mutates `crd`.
 */
export function setCrdCondition(
  crd: CustomResourceDefinition,
  condition: Omit<CustomResourceDefinitionCondition, "lastTransitionTime">,
  now: string,
): void {
  crd.status ??= {};
  const conditions = crd.status.conditions ?? [];
  const at = conditions.findIndex((c) => c.type === condition.type);
  const existing = conditions[at];
  const lastTransitionTime =
    existing !== undefined && existing.status === condition.status
      ? (existing.lastTransitionTime ?? now)
      : now;
  const next: CustomResourceDefinitionCondition = {
    type: condition.type,
    status: condition.status,
    lastTransitionTime,
    ...(condition.reason === undefined ? {} : { reason: condition.reason }),
    ...(condition.message === undefined ? {} : { message: condition.message }),
  };
  if (at < 0) conditions.push(next);
  else conditions[at] = next;
  crd.status.conditions = conditions;
}
