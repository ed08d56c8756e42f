/**
 * LeaderWorkerSet defaulting: what upstream's CRD schema defaults and its mutating webhook set.
 * gantry serves the CRD with the schema defaults (and the webhook's as schema defaults too); the
 * controller applies these again when it reads an object, so one stored before a default
 * existed behaves the same. Pure.
 */

import type { DeepReadonly } from "../../../util/index.ts";
import type { IntOrString } from "../../core/v1/pod-template.ts";
import type { LeaderWorkerSet } from "./types.ts";

/** A LeaderWorkerSet with every defaulted field set. */
export interface DefaultedLeaderWorkerSet extends LeaderWorkerSet {
  spec: LeaderWorkerSet["spec"] & {
    replicas: number;
    startupPolicy: "LeaderCreated" | "LeaderReady";
    leaderWorkerTemplate: LeaderWorkerSet["spec"]["leaderWorkerTemplate"] & {
      size: number;
      restartPolicy: "RecreateGroupOnPodRestart" | "RecreateGroupAfterStart" | "None";
    };
    rolloutStrategy: {
      type: "RollingUpdate";
      rollingUpdateConfiguration: {
        partition: number;
        maxUnavailable: IntOrString;
        maxSurge: IntOrString;
      };
    };
    networkConfig: { subdomainPolicy: "Shared" | "UniquePerReplica" };
  };
}

/**
 * A defaulted deep copy of `lws`: replicas 1, size 1, restartPolicy RecreateGroupOnPodRestart
 * (the deprecated `Default` becomes `None`, as the webhook rewrites it), startupPolicy
 * LeaderCreated, RollingUpdate with partition 0, maxUnavailable 1 and maxSurge 0, subdomain
 * policy Shared, subgroup policy type LeaderWorker.
 */
export function defaultLeaderWorkerSet(
  lws: DeepReadonly<LeaderWorkerSet>,
): DefaultedLeaderWorkerSet {
  const copy = structuredClone(lws) as LeaderWorkerSet;
  const spec = copy.spec ?? ({} as LeaderWorkerSet["spec"]);
  copy.spec = spec;
  spec.replicas ??= 1;
  spec.startupPolicy ??= "LeaderCreated";
  const template =
    spec.leaderWorkerTemplate ?? ({} as LeaderWorkerSet["spec"]["leaderWorkerTemplate"]);
  spec.leaderWorkerTemplate = template;
  template.size ??= 1;
  template.restartPolicy ??= "RecreateGroupOnPodRestart";
  if (template.restartPolicy === "Default") template.restartPolicy = "None";
  if (template.subGroupPolicy !== undefined) {
    template.subGroupPolicy.subGroupPolicyType ??= "LeaderWorker";
  }
  const rollout = spec.rolloutStrategy ?? { type: "RollingUpdate" };
  spec.rolloutStrategy = rollout;
  rollout.type ??= "RollingUpdate";
  const rolling = rollout.rollingUpdateConfiguration ?? {};
  rollout.rollingUpdateConfiguration = rolling;
  rolling.partition ??= 0;
  rolling.maxUnavailable ??= 1;
  rolling.maxSurge ??= 0;
  const network = spec.networkConfig ?? {};
  spec.networkConfig = network;
  network.subdomainPolicy ??= "Shared";
  return copy as DefaultedLeaderWorkerSet;
}

/**
 * `intstr.GetScaledValueFromIntOrPercent`: an integer as is, `"N%"` of `total` rounded up or
 * down. `undefined` for a string that is not a percentage.
 */
export function scaledIntOrPercent(
  value: IntOrString,
  total: number,
  roundUp: boolean,
): number | undefined {
  if (typeof value === "number") return value;
  const match = /^(\d+)%$/.exec(value);
  if (match?.[1] === undefined) return undefined;
  const scaled = (Number(match[1]) * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}
