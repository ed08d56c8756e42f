/**
 * What each emulated container will do, read from the pod: how long it runs, how it exits, when
 * its probes pass. The `gantry.dev/*` annotations make tests and demos deterministic.
 */
import type { Container, Pod } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { parseDuration } from "../../util/index.ts";

/** How long app containers run before exiting (`30s`); unset: until the pod is deleted. */
export const runForAnnotation = "gantry.dev/run-for";
/** The exit code of app containers when they exit (`"1"`); alone, it means "exit at once". */
export const exitCodeAnnotation = "gantry.dev/exit-code";
/** Overrides the kubelet's `podStartDelay` for this pod. */
export const startDelayAnnotation = "gantry.dev/start-delay";
/** Overrides the kubelet's `podStopDelay` for this pod. */
export const stopDelayAnnotation = "gantry.dev/stop-delay";

/** `gantry.dev/run-for.<container>` and `gantry.dev/exit-code.<container>` target one container. */
export function containerAnnotation(base: string, container: string): string {
  return `${base}.${container}`;
}

/** Where a container sits in the pod's lifecycle. */
export type ContainerKind = "init" | "sidecar" | "app";

/** The plan of one container. Times are milliseconds relative to its own start. */
export interface ContainerPlan {
  readonly name: string;
  readonly kind: ContainerKind;
  readonly image: string;
  /** When it exits after starting; `undefined`: it runs until stopped. */
  readonly runForMs: number | undefined;
  readonly exitCode: number;
  /** After start, when `started` turns true (startup probe's initial delay). */
  readonly startedAfterMs: number;
  /** After start, when `ready` turns true (readiness probe's initial delay, after started). */
  readonly readyAfterMs: number;
}

/** Whether a container's image in `pod` differs from the one `plan` runs (a pod update). */
export function specImagesChanged(plan: PodPlan, pod: DeepReadonly<Pod>): boolean {
  const images = new Map<string, string>();
  for (const c of [...(pod.spec.initContainers ?? []), ...pod.spec.containers]) {
    images.set(c.name, c.image ?? "");
  }
  return plan.containers.some((c) => {
    const image = images.get(c.name);
    return image !== undefined && image !== c.image;
  });
}

/** The plan of a pod; `problems` are annotations that could not be read (they are ignored). */
export interface PodPlan {
  readonly containers: readonly ContainerPlan[];
  readonly startDelayMs: number;
  readonly stopDelayMs: number;
  readonly problems: readonly string[];
}

function readRunFor(
  annotations: Readonly<Record<string, string>>,
  key: string,
  problems: string[],
): number | undefined {
  const text = annotations[key];
  if (text === undefined) return undefined;
  const ms = parseDuration(text);
  if (ms === undefined || ms < 0) {
    problems.push(`annotation ${key}: ${JSON.stringify(text)} is not a duration such as "30s"`);
    return undefined;
  }
  return ms;
}

function readExitCode(
  annotations: Readonly<Record<string, string>>,
  key: string,
  problems: string[],
): number | undefined {
  const text = annotations[key];
  if (text === undefined) return undefined;
  const code = Number(text.trim());
  if (!/^\d+$/.test(text.trim()) || code > 255) {
    problems.push(`annotation ${key}: ${JSON.stringify(text)} is not an exit code from 0 to 255`);
    return undefined;
  }
  return code;
}

function probeDelayMs(probe: DeepReadonly<Container["readinessProbe"]>): number {
  return probe === undefined ? 0 : Math.max(0, probe.initialDelaySeconds ?? 0) * 1000;
}

function planOf(
  container: DeepReadonly<Container>,
  kind: ContainerKind,
  annotations: Readonly<Record<string, string>>,
  podRunFor: number | undefined,
  podExitCode: number | undefined,
  problems: string[],
): ContainerPlan {
  const ownRunFor = readRunFor(
    annotations,
    containerAnnotation(runForAnnotation, container.name),
    problems,
  );
  const ownExit = readExitCode(
    annotations,
    containerAnnotation(exitCodeAnnotation, container.name),
    problems,
  );
  const podLevel = kind === "app";
  const exitCode = ownExit ?? (podLevel ? podExitCode : undefined) ?? 0;
  let runForMs = ownRunFor ?? (podLevel ? podRunFor : undefined);
  if (runForMs === undefined) {
    // Init containers finish at once unless told otherwise; an exit code alone means "exit now".
    if (kind === "init" || ownExit !== undefined || (podLevel && podExitCode !== undefined)) {
      runForMs = 0;
    }
  }
  const startedAfterMs = probeDelayMs(container.startupProbe);
  return {
    name: container.name,
    kind,
    image: container.image ?? "",
    runForMs,
    exitCode,
    startedAfterMs,
    readyAfterMs: kind === "init" ? 0 : startedAfterMs + probeDelayMs(container.readinessProbe),
  };
}

/** Reads a pod's plan. Delays default to the kubelet's settings. */
export function podPlan(
  pod: DeepReadonly<Pod>,
  defaults: { readonly startDelayMs: number; readonly stopDelayMs: number },
): PodPlan {
  const annotations = (pod.metadata.annotations ?? {}) as Readonly<Record<string, string>>;
  const problems: string[] = [];
  const podRunFor = readRunFor(annotations, runForAnnotation, problems);
  const podExitCode = readExitCode(annotations, exitCodeAnnotation, problems);
  const containers: ContainerPlan[] = [];
  for (const c of pod.spec.initContainers ?? []) {
    const kind = c.restartPolicy === "Always" ? "sidecar" : "init";
    containers.push(planOf(c, kind, annotations, podRunFor, podExitCode, problems));
  }
  for (const c of pod.spec.containers ?? []) {
    containers.push(planOf(c, "app", annotations, podRunFor, podExitCode, problems));
  }
  return {
    containers,
    startDelayMs: readRunFor(annotations, startDelayAnnotation, problems) ?? defaults.startDelayMs,
    stopDelayMs: readRunFor(annotations, stopDelayAnnotation, problems) ?? defaults.stopDelayMs,
    problems,
  };
}
