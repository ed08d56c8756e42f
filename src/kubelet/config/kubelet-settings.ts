/** Reads a pool's `kubelet:` section into `KubeletSettings`, defaulting what is left out. */
import { evictionSignals, evictionThreshold } from "./allocatable.ts";
import {
  cpuManagerPolicies,
  defaultKubeletSettings,
  type KubeletSettings,
  topologyManagerPolicies,
  topologyManagerScopes,
} from "./cluster-config.ts";
import {
  checkKeys,
  childPath,
  type Problems,
  readDuration,
  readInteger,
  readObject,
  readString,
  readStringMap,
  suggest,
} from "./reader.ts";
import { readResourceList } from "./resource-list.ts";

const durationFields = {
  cpuManagerReconcilePeriod: "cpuManagerReconcilePeriodMs",
  podStartDelay: "podStartDelayMs",
  podStopDelay: "podStopDelayMs",
  nodeStatusUpdateFrequency: "nodeStatusUpdateFrequencyMs",
  nodeStatusReportFrequency: "nodeStatusReportFrequencyMs",
} as const;

/** The keys a `kubelet:` section may hold. */
export const kubeletSettingsFields = [
  "cpuManagerPolicy",
  "cpuManagerPolicyOptions",
  "cpuManagerReconcilePeriod",
  "featureGates",
  "topologyManagerPolicy",
  "topologyManagerScope",
  "reservedSystemCPUs",
  "maxPods",
  "systemReserved",
  "kubeReserved",
  "evictionHard",
  "podStartDelay",
  "podStopDelay",
  "nodeStatusUpdateFrequency",
  "nodeStatusReportFrequency",
  "nodeLeaseDurationSeconds",
] as const;

function readChoice<T extends string>(
  value: unknown,
  choices: readonly T[],
  path: string,
  problems: Problems,
): T | undefined {
  const text = readString(value, path, problems);
  if (text === undefined) return undefined;
  if ((choices as readonly string[]).includes(text)) return text as T;
  const hint = suggest(text, choices);
  problems.add(
    path,
    `unknown value ${JSON.stringify(text)}; use one of ${choices.map((c) => JSON.stringify(c)).join(", ")}${hint === undefined ? "" : ` (did you mean ${JSON.stringify(hint)}?)`}`,
  );
  return undefined;
}

function readEvictionHard(
  value: unknown,
  path: string,
  problems: Problems,
): Record<string, string> | undefined {
  const map = readStringMap(value, path, problems);
  if (map === undefined) return undefined;
  for (const [signal, threshold] of Object.entries(map)) {
    const p = childPath(path, signal);
    if (!(evictionSignals as readonly string[]).includes(signal)) {
      const hint = suggest(signal, evictionSignals);
      problems.add(
        p,
        `unknown eviction signal${hint === undefined ? `; use one of ${evictionSignals.join(", ")}` : `; did you mean "${hint}"?`}`,
      );
    } else if (evictionThreshold(threshold, undefined) === undefined) {
      problems.add(
        p,
        `invalid threshold ${JSON.stringify(threshold)}; write a quantity ("100Mi") or a percentage ("10%")`,
      );
    }
  }
  return map;
}

/** `"0-3,8"`: the cpuset list syntax of `reservedSystemCPUs`. */
function isCpuList(text: string): boolean {
  if (text === "") return true;
  return text.split(",").every((part) => {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    return m !== null && (m[2] === undefined || Number(m[2]) >= Number(m[1]));
  });
}

/** The kubelet feature gates the emulation knows (the CPU manager's option gates). */
export const knownFeatureGates = [
  "CPUManagerPolicyAlphaOptions",
  "CPUManagerPolicyBetaOptions",
] as const;

function readFeatureGates(
  value: unknown,
  path: string,
  problems: Problems,
): Record<string, boolean> | undefined {
  const object = readObject(value, path, problems);
  if (object === undefined) return undefined;
  const gates: Record<string, boolean> = {};
  for (const [name, enabled] of Object.entries(object)) {
    const p = childPath(path, name);
    if (!(knownFeatureGates as readonly string[]).includes(name)) {
      const hint = suggest(name, knownFeatureGates);
      problems.add(
        p,
        `unrecognized feature gate: ${name}${hint === undefined ? `; the emulated kubelet knows ${knownFeatureGates.join(", ")}` : `; did you mean "${hint}"?`}`,
      );
    } else if (typeof enabled !== "boolean") {
      problems.add(p, `must be true or false, got ${JSON.stringify(enabled)}`);
    } else {
      gates[name] = enabled;
    }
  }
  return gates;
}

/** Reads `kubelet:`; absent keys take `defaultKubeletSettings`. */
export function readKubeletSettings(
  value: unknown,
  path: string,
  problems: Problems,
): KubeletSettings {
  const object = readObject(value, path, problems);
  if (object === undefined) return defaultKubeletSettings;
  checkKeys(object, kubeletSettingsFields, path, problems);
  const at = (key: string): string => childPath(path, key);

  const settings: { -readonly [K in keyof KubeletSettings]: KubeletSettings[K] } = {
    ...defaultKubeletSettings,
  };
  /** Reads key `field` with `read`; a value that is there and valid becomes the setting. */
  const take = <K extends keyof KubeletSettings>(
    field: K,
    read: (value: unknown, path: string) => KubeletSettings[K] | undefined,
  ): void => {
    const found = read(object[field], at(field));
    if (found !== undefined) settings[field] = found;
  };
  take("cpuManagerPolicy", (v, p) => readChoice(v, cpuManagerPolicies, p, problems));
  take("cpuManagerPolicyOptions", (v, p) => readStringMap(v, p, problems));
  take("featureGates", (v, p) => readFeatureGates(v, p, problems));
  take("topologyManagerPolicy", (v, p) => readChoice(v, topologyManagerPolicies, p, problems));
  take("topologyManagerScope", (v, p) => readChoice(v, topologyManagerScopes, p, problems));

  const reservedValue = object["reservedSystemCPUs"];
  const reserved =
    typeof reservedValue === "number"
      ? String(reservedValue)
      : readString(reservedValue, at("reservedSystemCPUs"), problems);
  if (reserved !== undefined) {
    if (isCpuList(reserved)) settings.reservedSystemCPUs = reserved.replace(/\s+/g, "");
    else {
      problems.add(
        at("reservedSystemCPUs"),
        `invalid CPU list ${JSON.stringify(reserved)}; write CPU ids and ranges such as "0,1" or "0-3,8"`,
      );
    }
  }

  take("maxPods", (v, p) => readInteger(v, p, problems, 1));
  take("nodeLeaseDurationSeconds", (v, p) => readInteger(v, p, problems, 1));
  take("systemReserved", (v, p) => readResourceList(v, p, problems));
  take("kubeReserved", (v, p) => readResourceList(v, p, problems));
  take("evictionHard", (v, p) => readEvictionHard(v, p, problems));

  for (const [key, field] of Object.entries(durationFields)) {
    const ms = readDuration(object[key], at(key), problems);
    if (ms !== undefined) settings[field] = ms;
  }
  for (const key of ["nodeStatusUpdateFrequency", "nodeStatusReportFrequency"] as const) {
    if (settings[durationFields[key]] === 0) {
      problems.add(at(key), "must be longer than 0s; the default is 10s (update) and 5m (report)");
    }
  }
  return settings;
}
