/**
 * The events a kubelet records about a pod's containers, in upstream's words
 * (pkg/kubelet/images/image_manager.go, kuberuntime/kuberuntime_container.go), derived from one
 * step of the emulated runtime: the records before and after it. Pure.
 *
 * - Each new container instance: `Pulling` / `Pulled` (`Successfully pulled image "nginx" in
 *   0s (0s including waiting). Image size: 0 bytes.`) when the pull policy is Always or the
 *   node does not have the image yet, else `Pulled` (`Container image "nginx" already present
 *   on machine`); then `Created` (`Created container: nginx`) and `Started` (`Started
 *   container nginx`). Emulated pulls take no time and transfer nothing.
 * - A container entering its restart back-off: Warning `BackOff` (`Back-off restarting failed
 *   container nginx in pod web_default(uid)`).
 * - The kubelet starting to stop the pod (deletion, or a terminal phase set by someone else):
 *   `Killing` (`Stopping container nginx`) for each running container.
 */
import { defaultPullPolicy, type Pod } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { normalizeImage } from "./image.ts";
import type { ContainerRecord, PodRecord } from "./pod-record.ts";

/** One event about a pod; `fieldPath` names the container (`spec.containers{nginx}`). */
export interface RuntimeEvent {
  readonly fieldPath: string;
  readonly type: "Normal" | "Warning";
  readonly reason: string;
  readonly message: string;
}

/** Most start events recorded for one container in one step (repeats only bump a count). */
const maxStartsPerStep = 10;

/** How many instances of the container have been started so far. */
function instancesStarted(c: ContainerRecord): number {
  switch (c.state.kind) {
    case "waiting":
      return c.restartCount;
    case "running":
    case "backoff":
    case "terminated":
      return c.restartCount + 1;
  }
}

/** The event field path of a container: `spec.containers{c}` or `spec.initContainers{c}`. */
export function fieldPathOf(c: ContainerRecord): string {
  return c.plan.kind === "app"
    ? `spec.containers{${c.plan.name}}`
    : `spec.initContainers{${c.plan.name}}`;
}

/** `format.Pod`: `name_namespace(uid)`. */
function formatPod(pod: DeepReadonly<Pod>): string {
  return `${pod.metadata.name ?? ""}_${pod.metadata.namespace ?? ""}(${pod.metadata.uid ?? ""})`;
}

function pullPolicyOf(pod: DeepReadonly<Pod>, c: ContainerRecord): string {
  const containers = c.plan.kind === "app" ? pod.spec.containers : (pod.spec.initContainers ?? []);
  const spec = containers.find((s) => s.name === c.plan.name);
  return spec?.imagePullPolicy ?? defaultPullPolicy(c.plan.image);
}

/**
 * The events of one runtime step from `before` to `after`, and the images the node pulled
 * (normalized). `hasImage(normalized)` says which images the node already has.
 */
export function runtimeEvents(
  pod: DeepReadonly<Pod>,
  before: PodRecord,
  after: PodRecord,
  hasImage: (image: string) => boolean,
): { events: RuntimeEvent[]; pulled: string[] } {
  const events: RuntimeEvent[] = [];
  const pulled: string[] = [];
  const present = (image: string): boolean => pulled.includes(image) || hasImage(image);
  const stopping = before.stopAt === undefined && after.stopAt !== undefined;
  after.containers.forEach((a, i) => {
    const b = before.containers[i];
    if (b === undefined) return;
    const fieldPath = fieldPathOf(a);
    const name = a.plan.name;
    const image = a.plan.image;
    if (stopping && b.state.kind === "running") {
      events.push({
        fieldPath,
        type: "Normal",
        reason: "Killing",
        message: `Stopping container ${name}`,
      });
    }
    const starts = Math.min(maxStartsPerStep, instancesStarted(a) - instancesStarted(b));
    for (let n = 0; n < starts; n++) {
      const normalized = normalizeImage(image);
      const policy = pullPolicyOf(pod, a);
      if (policy === "Always" || (policy !== "Never" && !present(normalized))) {
        events.push({
          fieldPath,
          type: "Normal",
          reason: "Pulling",
          message: `Pulling image "${image}"`,
        });
        events.push({
          fieldPath,
          type: "Normal",
          reason: "Pulled",
          message: `Successfully pulled image "${image}" in 0s (0s including waiting). Image size: 0 bytes.`,
        });
        if (!present(normalized)) pulled.push(normalized);
      } else {
        events.push({
          fieldPath,
          type: "Normal",
          reason: "Pulled",
          message: `Container image "${image}" already present on machine`,
        });
      }
      events.push({
        fieldPath,
        type: "Normal",
        reason: "Created",
        message: `Created container: ${name}`,
      });
      events.push({
        fieldPath,
        type: "Normal",
        reason: "Started",
        message: `Started container ${name}`,
      });
    }
    const backoff = a.state.kind === "backoff" ? a.state.restartAt : undefined;
    const wasBackoff = b.state.kind === "backoff" ? b.state.restartAt : undefined;
    if (backoff !== undefined && backoff !== wasBackoff) {
      events.push({
        fieldPath,
        type: "Warning",
        reason: "BackOff",
        message: `Back-off restarting failed container ${name} in pod ${formatPod(pod)}`,
      });
    }
  });
  return { events, pulled };
}
