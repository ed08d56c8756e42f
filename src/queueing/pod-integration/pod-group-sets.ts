/**
 * KEP-976 story 3, "groups of pods where the driver generates workers", which upstream Kueue
 * never built (kueue#1656); gantry's design is docs/decisions/0008-pod-group-sets.md. The driver
 * pod declares the whole group in `kueue.x-k8s.io/pod-group-sets`: a YAML or JSON list of pod
 * sets `{name, count, template?}` (the Workload's PodSet shape). A set without a template takes
 * the driver's own spec. Workers created later name their set in `kueue.x-k8s.io/pod-group-role`.
 *
 * Everything here is pure: parsing, validation (field errors in the webhook's style, rooted at
 * the annotation) and the PodSets the Workload gets.
 */
import { parse as parseYaml } from "yaml";
import {
  type FieldError,
  type FieldPath,
  fieldPath,
  invalid,
  isDns1123Label,
  isQuantity,
  maxPodSets,
  type Pod,
  type PodSet,
  type PodSpec,
  podGroupRoleLabel,
  podGroupSetsAnnotation,
  podGroupTotalCountAnnotation,
  required,
  tooLong,
  tooMany,
} from "../../api/index.ts";
import { type DeepReadonly, deepCopy } from "../../util/index.ts";

/**
 * The most bytes the annotation may hold. The API server caps all annotations of an object at
 * 256 KiB together; this keeps the group's description to an eighth of that, which is room for
 * eight templates of the fields admission reads (requests, selectors, tolerations, affinity).
 */
export const maxPodGroupSetsBytes = 32 * 1024;

/** One declared pod set. `template` undefined: the driver's own spec. */
export interface PodGroupSet {
  readonly name: string;
  readonly count: number;
  readonly template?: { readonly spec: PodSpec };
}

export type ParsedPodGroupSets =
  | { readonly kind: "ok"; readonly sets: readonly PodGroupSet[] }
  | { readonly kind: "invalid"; readonly errors: readonly FieldError[] };

const annotationPath = fieldPath("metadata", "annotations").key(podGroupSetsAnnotation);
const rolePath = fieldPath("metadata", "labels").key(podGroupRoleLabel);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function validateTemplate(value: unknown, path: FieldPath): FieldError[] {
  if (!isRecord(value)) return [invalid(path, value, "must be a pod template (spec.containers)")];
  const spec = value["spec"];
  if (!isRecord(spec)) return [required(path.child("spec"))];
  const containers = spec["containers"];
  const containersPath = path.child("spec", "containers");
  if (!Array.isArray(containers) || containers.length === 0) return [required(containersPath)];
  const errors: FieldError[] = [];
  containers.forEach((container: unknown, i) => {
    const at = containersPath.index(i);
    if (!isRecord(container)) {
      errors.push(invalid(at, container, "must be a container"));
      return;
    }
    const name = container["name"];
    if (typeof name !== "string" || name === "") errors.push(required(at.child("name")));
    else errors.push(...isDns1123Label(name).map((m) => invalid(at.child("name"), name, m)));
    const resources = container["resources"];
    if (resources === undefined) return;
    if (!isRecord(resources)) {
      errors.push(invalid(at.child("resources"), resources, "must be a mapping"));
      return;
    }
    for (const field of ["requests", "limits"]) {
      const list = resources[field];
      if (list === undefined) continue;
      if (!isRecord(list)) {
        errors.push(invalid(at.child("resources", field), list, "must be a mapping"));
        continue;
      }
      for (const [resource, quantity] of Object.entries(list)) {
        const text = typeof quantity === "number" ? String(quantity) : quantity;
        if (typeof text !== "string" || !isQuantity(text)) {
          errors.push(
            invalid(
              at.child("resources", field).key(resource),
              quantity,
              "must be a quantity, e.g. 500m or 1Gi",
            ),
          );
        }
      }
    }
  });
  return errors;
}

/** Parses and validates the annotation's value (YAML 1.2, so JSON too). */
export function parsePodGroupSets(text: string): ParsedPodGroupSets {
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > maxPodGroupSetsBytes) {
    return { kind: "invalid", errors: [tooLong(annotationPath, maxPodGroupSetsBytes)] };
  }
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error: unknown) {
    const detail = error instanceof Error ? error.message.split("\n")[0] : String(error);
    return {
      kind: "invalid",
      errors: [invalid(annotationPath, "", `cannot parse the pod sets as YAML or JSON: ${detail}`)],
    };
  }
  if (!Array.isArray(raw) || raw.length === 0) {
    return {
      kind: "invalid",
      errors: [
        invalid(
          annotationPath,
          "",
          "must be a non-empty list of pod sets ({name, count, template})",
        ),
      ],
    };
  }
  const errors: FieldError[] = [];
  if (raw.length > maxPodSets) errors.push(tooMany(annotationPath, raw.length, maxPodSets));
  const sets: PodGroupSet[] = [];
  const seen = new Set<string>();
  raw.forEach((entry: unknown, i) => {
    const at = annotationPath.index(i);
    if (!isRecord(entry)) {
      errors.push(invalid(at, entry, "must be a pod set ({name, count, template})"));
      return;
    }
    for (const key of Object.keys(entry)) {
      if (key !== "name" && key !== "count" && key !== "template") {
        errors.push(
          invalid(
            at.child(key),
            entry[key],
            "unknown field; known fields are name, count, template",
          ),
        );
      }
    }
    const name = entry["name"];
    if (typeof name !== "string" || name === "") {
      errors.push(required(at.child("name")));
    } else {
      errors.push(...isDns1123Label(name).map((m) => invalid(at.child("name"), name, m)));
      if (seen.has(name)) errors.push(invalid(at.child("name"), name, "duplicate pod set name"));
      seen.add(name);
    }
    const count = entry["count"];
    if (count === undefined) errors.push(required(at.child("count")));
    else if (typeof count !== "number" || !Number.isInteger(count) || count < 1) {
      errors.push(invalid(at.child("count"), count, "must be an integer greater than zero"));
    }
    const template = entry["template"];
    const empty =
      template === undefined ||
      template === null ||
      (isRecord(template) && Object.keys(template).length === 0);
    if (!empty) errors.push(...validateTemplate(template, at.child("template")));
    if (typeof name === "string" && typeof count === "number") {
      sets.push(
        empty
          ? { name, count }
          : {
              name,
              count,
              template: { spec: deepCopy((template as { spec: PodSpec }).spec) },
            },
      );
    }
  });
  return errors.length > 0 ? { kind: "invalid", errors } : { kind: "ok", sets };
}

/**
 * The set the driver runs as: its `pod-group-role` label, else the first set without a
 * template. Undefined when neither applies.
 */
export function driverRole(
  sets: readonly PodGroupSet[],
  pod: DeepReadonly<Pod>,
): string | undefined {
  const role = pod.metadata.labels?.[podGroupRoleLabel];
  if (role !== undefined) return sets.some((s) => s.name === role) ? role : undefined;
  return sets.find((s) => s.template === undefined)?.name;
}

/** The group's size: every declared pod. */
export function totalOfSets(sets: readonly PodGroupSet[]): number {
  return sets.reduce((sum, s) => sum + s.count, 0);
}

/** The webhook's checks of a driver pod's annotation (CREATE and UPDATE). */
export function validateDriverPod(pod: DeepReadonly<Pod>): FieldError[] {
  const text = pod.metadata.annotations?.[podGroupSetsAnnotation];
  if (text === undefined) return [];
  const parsed = parsePodGroupSets(text);
  if (parsed.kind === "invalid") return [...parsed.errors];
  const names = parsed.sets.map((s) => s.name);
  const role = pod.metadata.labels?.[podGroupRoleLabel];
  if (role !== undefined && !names.includes(role)) {
    return [
      invalid(
        rolePath,
        role,
        `must name one of the pod sets in '${podGroupSetsAnnotation}': ${names.join(", ")}`,
      ),
    ];
  }
  if (driverRole(parsed.sets, pod) === undefined) {
    return [
      required(
        rolePath,
        `the driver's pod set: set the '${podGroupRoleLabel}' label or leave one pod set's template empty`,
      ),
    ];
  }
  const total = pod.metadata.annotations?.[podGroupTotalCountAnnotation];
  const sum = totalOfSets(parsed.sets);
  if (total !== undefined && total !== String(sum)) {
    return [
      invalid(
        fieldPath("metadata", "annotations").key(podGroupTotalCountAnnotation),
        total,
        `must equal the sum of the counts in '${podGroupSetsAnnotation}' (${sum})`,
      ),
    ];
  }
  return [];
}

/** The Workload's PodSets for a driver: declared order, empty templates take the driver's spec. */
export function podSetsOfDriver(sets: readonly PodGroupSet[], driver: DeepReadonly<Pod>): PodSet[] {
  return sets.map((s) => ({
    name: s.name,
    count: s.count,
    template: {
      spec: deepCopy(s.template === undefined ? driver.spec : s.template.spec) as PodSpec,
    },
  }));
}
