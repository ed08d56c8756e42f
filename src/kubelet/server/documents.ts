/**
 * The kubelet's read-only documents, served through the API server's node proxy:
 * `/spec/` (cAdvisor MachineInfo), `/pods` (the PodList the kubelet runs) and `/configz`.
 */
import type { Pod } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { formatDuration } from "../../util/index.ts";
import { type MachineInfo, machineInfoDocument } from "../machine/machine-info.ts";
import { type EmulatedNode, memoryBytesOf } from "../node/emulated-node.ts";

/** `GET /spec/`: the node's machine as cAdvisor describes it. */
export function machineInfo(node: EmulatedNode): MachineInfo {
  return machineInfoDocument(node.machine, memoryBytesOf(node.capacity), node.identity);
}

/** `GET /pods`: the pods the kubelet runs, as a v1 PodList. */
export function podsDocument(pods: readonly DeepReadonly<Pod>[]): {
  kind: "PodList";
  apiVersion: "v1";
  metadata: Record<string, never>;
  items: DeepReadonly<Pod>[];
} {
  return { kind: "PodList", apiVersion: "v1", metadata: {}, items: [...pods] };
}

/**
 * `GET /configz`: `{"kubeletconfig": …}`, the KubeletConfiguration in effect. Settings the
 * emulation honours come from the pool; the rest are upstream's defaults, reported for the
 * tools that read them.
 */
export function configz(
  node: EmulatedNode,
  kubeletPort: number,
): { kubeletconfig: Record<string, unknown> } {
  const k = node.kubelet;
  const nonEmpty = <T extends object>(key: string, value: T): Record<string, T> =>
    Object.keys(value).length === 0 ? {} : { [key]: value };
  return {
    kubeletconfig: {
      enableServer: true,
      podLogsDir: "/var/log/pods",
      syncFrequency: "1m0s",
      fileCheckFrequency: "20s",
      httpCheckFrequency: "20s",
      address: "0.0.0.0",
      port: kubeletPort,
      authentication: {
        x509: {},
        webhook: { enabled: true, cacheTTL: "2m0s" },
        anonymous: { enabled: false },
      },
      authorization: {
        mode: "Webhook",
        webhook: { cacheAuthorizedTTL: "5m0s", cacheUnauthorizedTTL: "30s" },
      },
      registryPullQPS: 5,
      registryBurst: 10,
      eventRecordQPS: 50,
      eventBurst: 100,
      enableDebuggingHandlers: true,
      healthzPort: 10248,
      healthzBindAddress: "127.0.0.1",
      oomScoreAdj: -999,
      clusterDomain: "cluster.local",
      streamingConnectionIdleTimeout: "4h0m0s",
      nodeStatusUpdateFrequency: formatDuration(k.nodeStatusUpdateFrequencyMs),
      nodeStatusReportFrequency: formatDuration(k.nodeStatusReportFrequencyMs),
      nodeLeaseDurationSeconds: k.nodeLeaseDurationSeconds,
      imageMinimumGCAge: "2m0s",
      imageGCHighThresholdPercent: 85,
      imageGCLowThresholdPercent: 80,
      volumeStatsAggPeriod: "1m0s",
      cgroupsPerQOS: true,
      cgroupDriver: "systemd",
      cpuManagerPolicy: k.cpuManagerPolicy,
      ...nonEmpty("cpuManagerPolicyOptions", k.cpuManagerPolicyOptions),
      cpuManagerReconcilePeriod: formatDuration(k.cpuManagerReconcilePeriodMs),
      memoryManagerPolicy: "None",
      topologyManagerPolicy: k.topologyManagerPolicy,
      topologyManagerScope: k.topologyManagerScope,
      runtimeRequestTimeout: "2m0s",
      hairpinMode: "promiscuous-bridge",
      maxPods: k.maxPods,
      podPidsLimit: -1,
      resolvConf: "/etc/resolv.conf",
      cpuCFSQuota: true,
      cpuCFSQuotaPeriod: "100ms",
      nodeStatusMaxImages: 50,
      maxOpenFiles: 1000000,
      contentType: "application/vnd.kubernetes.protobuf",
      kubeAPIQPS: 50,
      kubeAPIBurst: 100,
      serializeImagePulls: true,
      ...nonEmpty("evictionHard", k.evictionHard),
      evictionPressureTransitionPeriod: "5m0s",
      enableControllerAttachDetach: true,
      makeIPTablesUtilChains: true,
      iptablesMasqueradeBit: 14,
      iptablesDropBit: 15,
      failSwapOn: true,
      memorySwap: {},
      containerLogMaxSize: "10Mi",
      containerLogMaxFiles: 5,
      configMapAndSecretChangeDetectionStrategy: "Watch",
      ...nonEmpty("systemReserved", k.systemReserved),
      ...nonEmpty("kubeReserved", k.kubeReserved),
      ...(k.reservedSystemCPUs === "" ? {} : { reservedSystemCPUs: k.reservedSystemCPUs }),
      enforceNodeAllocatable: ["pods"],
      volumePluginDir: "/usr/libexec/kubernetes/kubelet-plugins/volume/exec/",
      logging: {
        format: "text",
        flushFrequency: "5s",
        verbosity: 0,
        options: { json: { infoBufferSize: "0" } },
      },
      enableSystemLogHandler: true,
      shutdownGracePeriod: "0s",
      shutdownGracePeriodCriticalPods: "0s",
      enableProfilingHandler: true,
      enableDebugFlagsHandler: true,
      seccompDefault: false,
      memoryThrottlingFactor: 0.9,
      registerNode: true,
      localStorageCapacityIsolation: true,
      containerRuntimeEndpoint: "unix:///run/containerd/containerd.sock",
    },
  };
}
