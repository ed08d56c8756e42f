/** Validation of the scheduling-related parts of a PodSpec and of node taints. */
import {
  duplicate,
  type FieldErrorList,
  forbiddenField,
  invalid,
  notSupported,
  required,
} from "../../meta/field-errors.ts";
import type { FieldPath } from "../../meta/field-path.ts";
import {
  validateLabelName,
  validateLabelSelector,
  validateSetOperatorValues,
} from "../../validation/meta.ts";
import {
  isDns1123Label,
  isDns1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
} from "../../validation/names.ts";
import type { Taint } from "./node-types.ts";
import type {
  Affinity,
  NodeSelector,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  PodAffinityTerm,
  PodSchedulingGate,
  Toleration,
  TopologySpreadConstraint,
  WorkloadReference,
} from "./pod-template.ts";

const taintEffects = ["NoSchedule", "PreferNoSchedule", "NoExecute"] as const;

function validateTaintEffect(
  effect: string | undefined,
  allowEmpty: boolean,
  path: FieldPath,
): FieldErrorList {
  if (!allowEmpty && (effect ?? "") === "") return [required(path)];
  return (taintEffects as readonly string[]).includes(effect ?? "")
    ? []
    : [notSupported(path, effect ?? "", taintEffects)];
}

/** `ValidateTolerations`. */
export function validateTolerations(
  tolerations: readonly Toleration[] | undefined,
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  (tolerations ?? []).forEach((t, i) => {
    const p = path.index(i);
    const key = t.key ?? "";
    const operator = t.operator ?? "";
    if (key !== "") errs.push(...validateLabelName(key, p.child("key")));
    if (key === "" && operator !== "Exists") {
      errs.push(
        invalid(
          p.child("operator"),
          operator,
          'operator must be Exists when `key` is empty, which means "match all values and all keys"',
        ),
      );
    }
    if (t.tolerationSeconds !== undefined && t.effect !== "NoExecute") {
      errs.push(
        invalid(
          p.child("effect"),
          t.effect ?? "",
          "effect must be 'NoExecute' when `tolerationSeconds` is set",
        ),
      );
    }
    switch (operator) {
      case "":
      case "Equal": {
        const msgs = isValidLabelValue(t.value ?? "");
        if (msgs.length > 0) errs.push(invalid(p.child("operator"), t.value ?? "", msgs.join(";")));
        break;
      }
      case "Exists":
        if ((t.value ?? "") !== "") {
          errs.push(
            invalid(p.child("operator"), t, "value must be empty when `operator` is 'Exists'"),
          );
        }
        break;
      default:
        errs.push(notSupported(p.child("operator"), operator, ["Equal", "Exists"]));
    }
    if ((t.effect ?? "") !== "")
      errs.push(...validateTaintEffect(t.effect, true, p.child("effect")));
  });
  return errs;
}

/** `validateNodeTaints`: key, value, effect, and unique by key and effect. */
export function validateNodeTaints(
  taints: readonly Taint[] | undefined,
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  const seen = new Set<string>();
  (taints ?? []).forEach((taint, i) => {
    const p = path.index(i);
    errs.push(...validateLabelName(taint.key, p.child("key")));
    const msgs = isValidLabelValue(taint.value ?? "");
    if (msgs.length > 0) errs.push(invalid(p.child("value"), taint.value ?? "", msgs.join(";")));
    errs.push(...validateTaintEffect(taint.effect, false, p.child("effect")));
    const id = `${taint.effect}\u0000${taint.key}`;
    if (seen.has(id)) {
      errs.push({ ...duplicate(p, taint), detail: "taints must be unique by key and effect pair" });
      return;
    }
    seen.add(id);
  });
  return errs;
}

/** The set-based operators plus the numeric `Gt`/`Lt`, which need exactly one value. */
function validateNodeSelectorOperator(
  operator: string,
  values: readonly string[],
  path: FieldPath,
): FieldErrorList {
  if (operator === "Gt" || operator === "Lt") {
    return values.length === 1
      ? []
      : [
          required(
            path.child("values"),
            "must be specified single value when `operator` is 'Lt' or 'Gt'",
          ),
        ];
  }
  return (
    validateSetOperatorValues(operator, values, path) ?? [
      invalid(path.child("operator"), operator, "not a valid selector operator"),
    ]
  );
}

function validateNodeSelectorRequirement(
  req: NodeSelectorRequirement,
  path: FieldPath,
  isField: boolean,
): FieldErrorList {
  const errs = validateNodeSelectorOperator(req.operator, req.values ?? [], path);
  if (isField) {
    if (req.key !== "metadata.name") {
      errs.push(invalid(path.child("key"), req.key, "not a valid field selector key"));
    }
  } else {
    errs.push(...validateLabelName(req.key, path.child("key")));
  }
  return errs;
}

function validateNodeSelectorTerm(term: NodeSelectorTerm, path: FieldPath): FieldErrorList {
  const errs: FieldErrorList = [];
  (term.matchExpressions ?? []).forEach((r, j) => {
    errs.push(
      ...validateNodeSelectorRequirement(r, path.child("matchExpressions").index(j), false),
    );
  });
  (term.matchFields ?? []).forEach((r, j) => {
    errs.push(...validateNodeSelectorRequirement(r, path.child("matchFields").index(j), true));
  });
  return errs;
}

/** `ValidateNodeSelector`: at least one term, each with valid requirements. */
export function validateNodeSelector(selector: NodeSelector, path: FieldPath): FieldErrorList {
  const terms = selector.nodeSelectorTerms ?? [];
  const termsPath = path.child("nodeSelectorTerms");
  if (terms.length === 0) return [required(termsPath, "must have at least one node selector term")];
  return terms.flatMap((t, i) => validateNodeSelectorTerm(t, termsPath.index(i)));
}

function validateWeight(weight: number, path: FieldPath): FieldErrorList {
  return weight < 1 || weight > 100 ? [invalid(path, weight, "must be in the range 1-100")] : [];
}

function validatePodAffinityTerm(term: PodAffinityTerm, path: FieldPath): FieldErrorList {
  const errs = validateLabelSelector(term.labelSelector, path.child("labelSelector"));
  errs.push(...validateLabelSelector(term.namespaceSelector, path.child("namespaceSelector")));
  for (const ns of term.namespaces ?? []) {
    for (const msg of isDns1123Label(ns)) errs.push(invalid(path.child("namespace"), ns, msg));
  }
  if ((term.topologyKey ?? "") === "") {
    errs.push(required(path.child("topologyKey"), "can not be empty"));
  } else {
    errs.push(...validateLabelName(term.topologyKey, path.child("topologyKey")));
  }
  return errs;
}

/** `validateAffinity`: node selector terms, pod (anti-)affinity terms and weights. */
export function validateAffinity(affinity: Affinity | undefined, path: FieldPath): FieldErrorList {
  const errs: FieldErrorList = [];
  if (affinity === undefined) return errs;
  const node = affinity.nodeAffinity;
  if (node !== undefined) {
    const np = path.child("nodeAffinity");
    if (node.requiredDuringSchedulingIgnoredDuringExecution !== undefined) {
      errs.push(
        ...validateNodeSelector(
          node.requiredDuringSchedulingIgnoredDuringExecution,
          np.child("requiredDuringSchedulingIgnoredDuringExecution"),
        ),
      );
    }
    (node.preferredDuringSchedulingIgnoredDuringExecution ?? []).forEach((t, i) => {
      const p = np.child("preferredDuringSchedulingIgnoredDuringExecution").index(i);
      errs.push(...validateWeight(t.weight, p.child("weight")));
      errs.push(...validateNodeSelectorTerm(t.preference, p.child("preference")));
    });
  }
  for (const kind of ["podAffinity", "podAntiAffinity"] as const) {
    const pa = affinity[kind];
    if (pa === undefined) continue;
    const pp = path.child(kind);
    (pa.requiredDuringSchedulingIgnoredDuringExecution ?? []).forEach((t, i) => {
      errs.push(
        ...validatePodAffinityTerm(
          t,
          pp.child("requiredDuringSchedulingIgnoredDuringExecution").index(i),
        ),
      );
    });
    (pa.preferredDuringSchedulingIgnoredDuringExecution ?? []).forEach((t, i) => {
      const p = pp.child("preferredDuringSchedulingIgnoredDuringExecution").index(i);
      errs.push(...validateWeight(t.weight, p.child("weight")));
      errs.push(...validatePodAffinityTerm(t.podAffinityTerm, p.child("podAffinityTerm")));
    });
  }
  return errs;
}

/** `validateTopologySpreadConstraints`. */
export function validateTopologySpreadConstraints(
  constraints: readonly TopologySpreadConstraint[] | undefined,
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  const list = constraints ?? [];
  list.forEach((c, i) => {
    const p = path.index(i);
    if (!(c.maxSkew > 0))
      errs.push(invalid(p.child("maxSkew"), c.maxSkew, "must be greater than zero"));
    if ((c.topologyKey ?? "") === "") {
      errs.push(required(p.child("topologyKey"), "can not be empty"));
    } else {
      errs.push(...validateLabelName(c.topologyKey, p.child("topologyKey")));
    }
    const when = ["DoNotSchedule", "ScheduleAnyway"];
    if (!when.includes(c.whenUnsatisfiable)) {
      errs.push(notSupported(p.child("whenUnsatisfiable"), c.whenUnsatisfiable, when));
    }
    const repeated = list
      .slice(i + 1)
      .some((o) => o.topologyKey === c.topologyKey && o.whenUnsatisfiable === c.whenUnsatisfiable);
    if (repeated) {
      errs.push(
        duplicate(
          p.child("{topologyKey, whenUnsatisfiable}"),
          `{${c.topologyKey}, ${c.whenUnsatisfiable}}`,
        ),
      );
    }
    if (c.minDomains !== undefined) {
      if (c.minDomains <= 0) {
        errs.push(invalid(p.child("minDomains"), c.minDomains, "must be greater than zero"));
      } else if (c.whenUnsatisfiable !== "DoNotSchedule") {
        errs.push(
          invalid(
            p.child("minDomains"),
            c.minDomains,
            `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${c.whenUnsatisfiable}`,
          ),
        );
      }
    }
    errs.push(...validateLabelSelector(c.labelSelector, p.child("labelSelector")));
  });
  return errs;
}

/** `validateSchedulingGates`: qualified names, no duplicates. */
export function validateSchedulingGates(
  gates: readonly PodSchedulingGate[] | undefined,
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  const seen = new Set<string>();
  (gates ?? []).forEach((gate, i) => {
    for (const msg of isQualifiedName(gate.name)) errs.push(invalid(path.index(i), gate.name, msg));
    if (seen.has(gate.name)) errs.push(duplicate(path.index(i), gate.name));
    seen.add(gate.name);
  });
  return errs;
}

/** `validateOnlyDeletedSchedulingGates`: an update may only remove gates. */
export function validateOnlyDeletedSchedulingGates(
  gates: readonly PodSchedulingGate[] | undefined,
  old: readonly PodSchedulingGate[] | undefined,
  path: FieldPath,
): FieldErrorList {
  const before = new Set((old ?? []).map((g) => g.name));
  const errs: FieldErrorList = [];
  const reported = new Set<string>();
  (gates ?? []).forEach((gate, i) => {
    if (before.has(gate.name) || reported.has(gate.name)) return;
    reported.add(gate.name);
    errs.push(
      forbiddenField(
        path.index(i).child("name"),
        `only deletion is allowed, but found new scheduling gate '${gate.name}'`,
      ),
    );
  });
  return errs;
}

/**
 * gantry's `spec.workloadRef`: `name` is a DNS subdomain; exactly one of `podGroupName` (a
 * standalone PodGroup) or `podGroup` (a group of the Workload, a DNS label);
 * `podGroupReplicaKey` (a DNS label) only together with `podGroup`.
 */
export function validateWorkloadReference(
  ref: WorkloadReference | undefined,
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  if (ref === undefined) return errs;
  const name = ref.name ?? "";
  if (name === "") errs.push(required(path.child("name")));
  else
    for (const msg of isDns1123Subdomain(name)) errs.push(invalid(path.child("name"), name, msg));
  const groupName = ref.podGroupName ?? "";
  const group = ref.podGroup ?? "";
  if (groupName === "" && group === "") {
    errs.push(invalid(path, "", "must specify one of: `podGroupName`, `podGroup`"));
  } else if (groupName !== "" && group !== "") {
    errs.push(
      invalid(
        path,
        "{podGroupName, podGroup}",
        "exactly one of `podGroupName`, `podGroup` is required, but multiple fields are set",
      ),
    );
  }
  if (groupName !== "") {
    for (const msg of isDns1123Subdomain(groupName)) {
      errs.push(invalid(path.child("podGroupName"), groupName, msg));
    }
  }
  if (group !== "") {
    for (const msg of isDns1123Label(group)) errs.push(invalid(path.child("podGroup"), group, msg));
  }
  const key = ref.podGroupReplicaKey;
  if (key !== undefined) {
    if (group === "") {
      errs.push(
        forbiddenField(
          path.child("podGroupReplicaKey"),
          "may only be set together with `podGroup`",
        ),
      );
    }
    for (const msg of isDns1123Label(key)) {
      errs.push(invalid(path.child("podGroupReplicaKey"), key, msg));
    }
  }
  return errs;
}
