/**
 * `GET /containerLogs/NAMESPACE/POD/CONTAINER`: an emulated container's log, as the kubelet
 * serves it to the API server's `pods/log`. Containers do not run, so what one "printed" is
 * declared on its pod, like the rest of its behaviour: the annotation `gantry.dev/log` holds the
 * output of every container of the pod (one line per line), written when the container started.
 * The kubelet's checks of the container's state come first, with its messages
 * (`validateContainerLogStatus`).
 */
import type { ContainerStatus, Pod } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";

/** The annotation holding what every container of the pod wrote to its log. */
export const logAnnotation = "gantry.dev/log";

/** The query `PodLogOptions` the API server passes through. */
export interface ContainerLogOptions {
  readonly previous: boolean;
  readonly timestamps: boolean;
  readonly tailLines?: number;
  readonly limitBytes?: number;
  /** Lines written before this instant (epoch ms) are left out. */
  readonly sinceMs?: number;
}

export type ContainerLogResult =
  | { readonly status: 200; readonly text: string; readonly running: boolean }
  | { readonly status: 400 | 404; readonly message: string };

/** A boolean query parameter as the API server forwards it (`true` or `1`). */
export function queryFlag(query: URLSearchParams, name: string): boolean {
  return query.get(name) === "true" || query.get(name) === "1";
}

/** Reads `PodLogOptions` from the kubelet request's query (already validated upstream). */
export function containerLogOptions(query: URLSearchParams, nowMs: number): ContainerLogOptions {
  const bool = (name: string) => queryFlag(query, name);
  const int = (name: string): number | undefined => {
    const text = query.get(name);
    if (text === null || text === "") return undefined;
    const value = Number(text);
    return Number.isInteger(value) ? value : undefined;
  };
  const sinceSeconds = int("sinceSeconds");
  const sinceTime = query.get("sinceTime");
  const sinceMs =
    sinceSeconds !== undefined
      ? nowMs - sinceSeconds * 1000
      : sinceTime !== null && sinceTime !== ""
        ? Date.parse(sinceTime)
        : undefined;
  const tailLines = int("tailLines");
  const limitBytes = int("limitBytes");
  return {
    previous: bool("previous"),
    timestamps: bool("timestamps"),
    ...(tailLines === undefined ? {} : { tailLines }),
    ...(limitBytes === undefined ? {} : { limitBytes }),
    ...(sinceMs === undefined || Number.isNaN(sinceMs) ? {} : { sinceMs }),
  };
}

/** The log of `container` in `pod`, or the kubelet's refusal. */
export function containerLog(
  pod: DeepReadonly<Pod> | undefined,
  container: string,
  options: ContainerLogOptions,
): ContainerLogResult {
  if (pod === undefined) return { status: 404, message: "pod not found" };
  const podName = pod.metadata.name ?? "";
  const status = [
    ...(pod.status?.initContainerStatuses ?? []),
    ...(pod.status?.containerStatuses ?? []),
  ].find((s) => s.name === container);
  if (status === undefined) {
    return {
      status: 400,
      message: `container "${container}" in pod "${podName}" is waiting to start - no logs yet`,
    };
  }
  const started = startedAt(status, options.previous);
  if (typeof started === "string") {
    return { status: 400, message: started.replace("%c", container).replace("%p", podName) };
  }
  const running = !options.previous && status.state?.running !== undefined;
  const text = render(pod.metadata.annotations?.[logAnnotation] ?? "", started, options);
  return { status: 200, text, running };
}

/**
 * When the container instance whose log is asked for started (epoch ms), or the kubelet's
 * message for why there is none (`%c`, `%p`: container and pod names).
 */
function startedAt(status: DeepReadonly<ContainerStatus>, previous: boolean): number | string {
  const state = status.state;
  const last = status.lastState?.terminated;
  if (previous) {
    if (last === undefined) return 'previous terminated container "%c" in pod "%p" not found';
    return Date.parse(last.startedAt ?? "");
  }
  if (state?.running !== undefined) return Date.parse(state.running.startedAt ?? "");
  if (state?.terminated !== undefined) return Date.parse(state.terminated.startedAt ?? "");
  if (last !== undefined) return Date.parse(last.startedAt ?? "");
  if (state?.waiting !== undefined) {
    const reason = state.waiting.reason ?? "";
    if (reason === "ErrImagePull")
      return 'container "%c" in pod "%p" is waiting to start: image can\'t be pulled';
    if (reason === "ImagePullBackOff") {
      return 'container "%c" in pod "%p" is waiting to start: trying and failing to pull image';
    }
    return `container "%c" in pod "%p" is waiting to start: ${reason}`;
  }
  return 'container "%c" in pod "%p" is waiting to start - no logs yet';
}

/** The declared lines, written at `started`, through `sinceMs`, `tailLines` and `limitBytes`. */
function render(declared: string, started: number, options: ContainerLogOptions): string {
  if (declared === "") return "";
  if (options.sinceMs !== undefined && !Number.isNaN(started) && started < options.sinceMs) {
    return "";
  }
  let lines = declared.replace(/\n$/, "").split("\n");
  if (options.tailLines !== undefined)
    lines = lines.slice(Math.max(0, lines.length - options.tailLines));
  const stamp = Number.isNaN(started) ? "" : `${rfc3339Nano(started)} `;
  let text = lines.map((line) => `${options.timestamps ? stamp : ""}${line}\n`).join("");
  if (options.limitBytes !== undefined) {
    text = Buffer.from(text).subarray(0, options.limitBytes).toString();
  }
  return text;
}

/** Go's `time.RFC3339Nano` in UTC, as the kubelet stamps log lines: trailing zeros dropped. */
function rfc3339Nano(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/\.000Z$/, "Z")
    .replace(/(\.\d*?)0+Z$/, "$1Z");
}
