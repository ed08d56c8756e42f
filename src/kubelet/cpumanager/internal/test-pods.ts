/** Pods for the CPU manager's tests: containers with cpu and memory requests equal to limits. */
import type { Container, Pod } from "../../../api/index.ts";

export interface TestContainer {
  readonly name: string;
  /** A CPU quantity (`"2"`, `"1500m"`). */
  readonly cpu: string;
  readonly init?: boolean;
  /** An init container with `restartPolicy: Always`. */
  readonly sidecar?: boolean;
  /** Leave out the limits (Burstable). */
  readonly burstable?: boolean;
}

/** A pod with these containers; Guaranteed unless a container is `burstable`. */
export function testPod(uid: string, containers: readonly TestContainer[]): Pod {
  const toContainer = (c: TestContainer): Container => ({
    name: c.name,
    image: "busybox",
    resources: {
      requests: { cpu: c.cpu, memory: "1Gi" },
      ...(c.burstable === true ? {} : { limits: { cpu: c.cpu, memory: "1Gi" } }),
    },
    ...(c.sidecar === true ? { restartPolicy: "Always" } : {}),
  });
  const init = containers.filter((c) => c.init === true || c.sidecar === true);
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: `pod-${uid}`, namespace: "default", uid },
    spec: {
      containers: containers.filter((c) => c.init !== true && c.sidecar !== true).map(toContainer),
      ...(init.length > 0 ? { initContainers: init.map(toContainer) } : {}),
    },
  };
}
