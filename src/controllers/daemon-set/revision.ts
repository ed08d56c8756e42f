/**
 * The hash that names a DaemonSet's template revision (`controller.ComputeHash`), the label it
 * puts on pods, and the pod template daemon pods are created from (`CreatePodTemplate`).
 */
import type { DaemonSet, Pod, PodTemplateSpec } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { addDaemonPodTolerations } from "./placement.ts";

/** `apps.DefaultDaemonSetUniqueLabelKey`. */
export const revisionHashLabel = "controller-revision-hash";
/** `extensions.DaemonSetTemplateGenerationKey`: the pre-1.7 way to tell revisions apart. */
export const templateGenerationLabel = "pod-template-generation";
/** `apps.DeprecatedTemplateGeneration`, set on DaemonSets by the API server upstream. */
export const templateGenerationAnnotation = "deprecated.daemonset.template.generation";

const alphanums = "bcdfghjklmnpqrstvwxz2456789";

function safeEncode(text: string): string {
  let out = "";
  for (const ch of text) out += alphanums[(ch.codePointAt(0) ?? 0) % alphanums.length];
  return out;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * `controller.ComputeHash`: FNV-1a (32 bit) over the template (canonical JSON here, Go's spew
 * dump upstream, so values differ from a real cluster's), then the collision count as 4
 * little-endian bytes when set, printed in decimal and safe-encoded.
 */
export function templateHash(
  template: DeepReadonly<PodTemplateSpec>,
  collisionCount: number | undefined,
): string {
  const body = new TextEncoder().encode(canonicalJson(template));
  let bytes = body;
  if (collisionCount !== undefined) {
    bytes = new Uint8Array(body.length + 4);
    bytes.set(body);
    new DataView(bytes.buffer).setUint32(body.length, collisionCount >>> 0, true);
  }
  let hash = 0x811c9dc5;
  for (const byte of bytes) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return safeEncode(String(hash >>> 0));
}

/** `GetTemplateGeneration`: the deprecated annotation as an integer, if present and valid. */
export function templateGeneration(ds: DeepReadonly<DaemonSet>): string | undefined {
  const value = ds.metadata.annotations?.[templateGenerationAnnotation];
  return value !== undefined && /^-?[0-9]+$/.test(value) ? String(BigInt(value)) : undefined;
}

/** `IsPodUpdated`: the pod carries the current hash (or template generation). */
export function isPodUpdated(
  pod: DeepReadonly<Pod>,
  hash: string,
  generation: string | undefined,
): boolean {
  const labels = pod.metadata.labels ?? {};
  const byGeneration = generation !== undefined && labels[templateGenerationLabel] === generation;
  return (hash !== "" && labels[revisionHashLabel] === hash) || byGeneration;
}

/** `CreatePodTemplate`: the template with the daemon tolerations and the revision labels. */
export function daemonPodTemplate(ds: DeepReadonly<DaemonSet>, hash: string): PodTemplateSpec {
  const template = structuredClone(ds.spec.template) as PodTemplateSpec;
  template.spec ??= { containers: [] };
  addDaemonPodTolerations(template.spec);
  const labels = { ...template.metadata?.labels };
  const generation = templateGeneration(ds);
  if (generation !== undefined) labels[templateGenerationLabel] = generation;
  if (hash !== "") labels[revisionHashLabel] = hash;
  template.metadata = { ...template.metadata, labels };
  return template;
}
