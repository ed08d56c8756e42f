import type {
  CustomResourceDefinition,
  CustomResourceDefinitionCondition,
  CustomResourceDefinitionNames,
} from "../../api/index.ts";
import { findCrdCondition } from "./conditions.ts";

/** A condition before it is stamped with a transition time. */
export type CrdConditionValue = Omit<CustomResourceDefinitionCondition, "lastTransitionTime">;

/** What the naming step decides for one CRD. */
export interface NamingResult {
  readonly acceptedNames: CustomResourceDefinitionNames;
  readonly namesAccepted: CrdConditionValue;
  readonly established: CrdConditionValue;
}

export const namesAcceptedReason = "NoConflicts";
export const establishedReason = "InitialNamesAccepted";

/**
 * Upstream's `NamingConditionController.calculateNamesAndConditions`, with the establishing
 * controller folded in: every requested name that is already accepted or still free in the group
 * is accepted; a name another CRD of the group has accepted is not, and NamesAccepted turns False
 * with `<Name>Conflict` and `"x" is already in use`. Established becomes True
 * (`InitialNamesAccepted`) as soon as all names are accepted and never turns back. `others` is
 * every stored CRD; the CRD itself and other groups are skipped. Pure.
 */
export function calculateNamesAndConditions(
  crd: CustomResourceDefinition,
  others: readonly CustomResourceDefinition[],
): NamingResult {
  const group = crd.spec.group;
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const other of others) {
    if (other.spec?.group !== group || other.metadata.name === crd.metadata.name) continue;
    const names = other.status?.acceptedNames;
    if (names === undefined) continue;
    for (const name of [names.plural, names.singular ?? "", ...(names.shortNames ?? [])]) {
      if (name !== "") resources.add(name);
    }
    for (const name of [names.kind, names.listKind ?? ""]) if (name !== "") kinds.add(name);
  }

  const requested = crd.spec.names;
  const accepted: CustomResourceDefinitionNames = crd.status?.acceptedNames ?? {
    plural: "",
    kind: "",
  };
  const next: CustomResourceDefinitionNames = { ...accepted };
  let conflict: { reason: string; message: string } | undefined;

  const check = (
    want: string | undefined,
    have: string | undefined,
    used: ReadonlySet<string>,
  ): string | undefined => {
    const value = want ?? "";
    if (value === (have ?? "") || !used.has(value)) return undefined;
    return `${JSON.stringify(value)} is already in use`;
  };

  const plural = check(requested.plural, accepted.plural, resources);
  if (plural === undefined) next.plural = requested.plural;
  else conflict = { reason: "PluralConflict", message: plural };

  const singular = check(requested.singular, accepted.singular, resources);
  if (singular === undefined) setOptional(next, "singular", requested.singular);
  else conflict = { reason: "SingularConflict", message: singular };

  if (!sameList(requested.shortNames, accepted.shortNames)) {
    const mine = new Set(accepted.shortNames ?? []);
    const errors: string[] = [];
    for (const short of requested.shortNames ?? []) {
      if (mine.has(short) || short === accepted.plural || short === accepted.singular) continue;
      const error = check(short, "", resources);
      if (error !== undefined) errors.push(error);
    }
    if (errors.length === 0) setOptional(next, "shortNames", requested.shortNames);
    else {
      conflict = {
        reason: "ShortNamesConflict",
        message: errors.length === 1 ? (errors[0] ?? "") : `[${errors.join(", ")}]`,
      };
    }
  }

  const kind = check(requested.kind, accepted.kind, kinds);
  if (kind === undefined) next.kind = requested.kind;
  else conflict = { reason: "KindConflict", message: kind };

  const listKind = check(requested.listKind, accepted.listKind, kinds);
  if (listKind === undefined) setOptional(next, "listKind", requested.listKind);
  else conflict = { reason: "ListKindConflict", message: listKind };

  setOptional(next, "categories", requested.categories);

  const namesAccepted: CrdConditionValue =
    conflict === undefined
      ? {
          type: "NamesAccepted",
          status: "True",
          reason: namesAcceptedReason,
          message: "no conflicts found",
        }
      : { type: "NamesAccepted", status: "False", ...conflict };

  const old = findCrdCondition(crd, "Established");
  let established: CrdConditionValue =
    old === undefined
      ? {
          type: "Established",
          status: "False",
          reason: "NotAccepted",
          message: "not all names are accepted",
        }
      : withoutTime(old);
  if (established.status !== "True" && namesAccepted.status === "True") {
    established = {
      type: "Established",
      status: "True",
      reason: establishedReason,
      message: "the initial names have been accepted",
    };
  }
  return { acceptedNames: canonicalNames(next), namesAccepted, established };
}

function withoutTime(condition: CustomResourceDefinitionCondition): CrdConditionValue {
  const { lastTransitionTime: _time, ...rest } = condition;
  return rest;
}

function setOptional<K extends "singular" | "listKind" | "shortNames" | "categories">(
  names: CustomResourceDefinitionNames,
  key: K,
  value: CustomResourceDefinitionNames[K] | undefined,
): void {
  if (value === undefined) delete names[key];
  else names[key] = value;
}

function sameList(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** The names as upstream serializes them (Go field order): plural and kind always, the rest when set. */
function canonicalNames(names: CustomResourceDefinitionNames): CustomResourceDefinitionNames {
  const singular = names.singular ?? "";
  const shortNames = names.shortNames ?? [];
  const listKind = names.listKind ?? "";
  const categories = names.categories ?? [];
  return {
    plural: names.plural ?? "",
    ...(singular === "" ? {} : { singular }),
    ...(shortNames.length === 0 ? {} : { shortNames: [...shortNames] }),
    kind: names.kind ?? "",
    ...(listKind === "" ? {} : { listKind }),
    ...(categories.length === 0 ? {} : { categories: [...categories] }),
  };
}
