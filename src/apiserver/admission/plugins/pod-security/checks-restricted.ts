/**
 * Restricted checks: volume types, privilege escalation, non-root users, a required seccomp
 * profile, dropped capabilities and the default /proc mount. Some replace a baseline check at
 * the versions they apply to (`overrides`). IDs, reasons and details as upstream's
 * `policy/check_*.go`.
 */

import {
  allowed,
  type Check,
  type CheckPodFn,
  containersText,
  forbidden,
  inUserNamespace,
  isSet,
  isWindows,
  joinQuote,
  list,
  pluralize,
  sortedSet,
  visitContainers,
} from "./check.ts";
import { procMountDefaultOnly, validSeccompType } from "./checks-baseline.ts";

/** Only these volume types, which come from the pod's own namespace, are allowed. */
const allowedVolumeSources = new Set([
  "configMap",
  "csi",
  "downwardAPI",
  "emptyDir",
  "ephemeral",
  "image",
  "persistentVolumeClaim",
  "projected",
  "secret",
]);

/** The restricted sources upstream names, in its order; anything else is `unknown`. */
const restrictedVolumeSources = [
  "hostPath",
  "gcePersistentDisk",
  "awsElasticBlockStore",
  "gitRepo",
  "nfs",
  "iscsi",
  "glusterfs",
  "rbd",
  "flexVolume",
  "cinder",
  "cephfs",
  "flocker",
  "fc",
  "azureFile",
  "vsphereVolume",
  "quobyte",
  "azureDisk",
  "photonPersistentDisk",
  "portworxVolume",
  "scaleIO",
  "storageos",
];

/** `restrictedVolumes` (1.0): only the allowed volume types; replaces `hostPathVolumes`. */
const restrictedVolumes: CheckPodFn = (_meta, spec) => {
  const volumes: string[] = [];
  const types: string[] = [];
  for (const volume of list(spec.volumes)) {
    const set = (field: string): boolean => isSet(volume[field]);
    if ([...allowedVolumeSources].some(set)) continue;
    volumes.push(volume.name);
    types.push(restrictedVolumeSources.find(set) ?? "unknown");
  }
  if (volumes.length === 0) return allowed;
  const distinct = sortedSet(types);
  return forbidden(
    "restricted volume types",
    `${pluralize("volume", "volumes", volumes.length)} ${joinQuote(volumes)} ${pluralize("uses", "use", volumes.length)} ${pluralize("restricted volume type", "restricted volume types", distinct.length)} ${joinQuote(distinct)}`,
  );
};

/** `allowPrivilegeEscalation` (1.8): every container sets allowPrivilegeEscalation=false. */
const allowPrivilegeEscalation1Dot8: CheckPodFn = (_meta, spec) => {
  const bad: string[] = [];
  visitContainers(spec, (c) => {
    if (c.securityContext?.allowPrivilegeEscalation !== false) bad.push(c.name);
  });
  if (bad.length === 0) return allowed;
  return forbidden(
    "allowPrivilegeEscalation != false",
    `${containersText(bad)} must set securityContext.allowPrivilegeEscalation=false`,
  );
};

/** Since 1.25, pods that declare `os.name: windows` are exempt from Linux-only checks. */
function linuxOnly(check: CheckPodFn): CheckPodFn {
  return (meta, spec) => (isWindows(spec) ? allowed : check(meta, spec));
}

/** Since 1.35, pods in a user namespace (`hostUsers: false`) are exempt from the user checks. */
function exceptUserNamespaces(check: CheckPodFn): CheckPodFn {
  return (meta, spec) => (inUserNamespace(spec) ? allowed : check(meta, spec));
}

/** `runAsNonRoot` (1.0): the pod, or every container, sets runAsNonRoot=true. */
const runAsNonRoot: CheckPodFn = (_meta, spec) => {
  const setters: string[] = [];
  let podNonRoot = false;
  const podValue = spec.securityContext?.runAsNonRoot;
  if (isSet(podValue)) {
    if (podValue === false) setters.push("pod");
    else podNonRoot = true;
  }
  const explicit: string[] = [];
  const implicit: string[] = [];
  visitContainers(spec, (c) => {
    const value = c.securityContext?.runAsNonRoot;
    if (isSet(value)) {
      if (value === false) explicit.push(c.name);
    } else if (!podNonRoot) {
      implicit.push(c.name);
    }
  });
  if (explicit.length > 0) setters.push(containersText(explicit));
  if (setters.length > 0) {
    return forbidden(
      "runAsNonRoot != true",
      `${setters.join(" and ")} must not set securityContext.runAsNonRoot=false`,
    );
  }
  if (implicit.length === 0) return allowed;
  return forbidden(
    "runAsNonRoot != true",
    `pod or ${containersText(implicit)} must set securityContext.runAsNonRoot=true`,
  );
};

/** `runAsUser` (1.23): neither the pod nor a container sets runAsUser=0. */
const runAsUser: CheckPodFn = (_meta, spec) => {
  const setters: string[] = [];
  if (spec.securityContext?.runAsUser === 0) setters.push("pod");
  const bad: string[] = [];
  visitContainers(spec, (c) => {
    if (c.securityContext?.runAsUser === 0) bad.push(c.name);
  });
  if (bad.length > 0) setters.push(containersText(bad));
  if (setters.length === 0) return allowed;
  return forbidden("runAsUser=0", `${setters.join(" and ")} must not set runAsUser=0`);
};

/**
 * `seccompProfile_restricted` (1.19): the pod, or every container, sets a seccomp profile of type
 * RuntimeDefault or Localhost; replaces `seccompProfile_baseline`.
 */
const seccompProfileRestricted: CheckPodFn = (_meta, spec) => {
  const setters: string[] = [];
  const values: string[] = [];
  let podSet = false;
  const podProfile = spec.securityContext?.seccompProfile;
  if (isSet(podProfile)) {
    if (validSeccompType(podProfile.type)) podSet = true;
    else {
      setters.push("pod");
      values.push(String(podProfile.type ?? ""));
    }
  }
  const explicit: string[] = [];
  const implicit: string[] = [];
  visitContainers(spec, (c) => {
    const profile = c.securityContext?.seccompProfile;
    if (isSet(profile)) {
      if (!validSeccompType(profile.type)) {
        explicit.push(c.name);
        values.push(String(profile.type ?? ""));
      }
    } else if (!podSet) {
      implicit.push(c.name);
    }
  });
  if (explicit.length > 0) setters.push(containersText(explicit));
  if (setters.length > 0) {
    return forbidden(
      "seccompProfile",
      `${setters.join(" and ")} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(values))}`,
    );
  }
  if (implicit.length === 0) return allowed;
  return forbidden(
    "seccompProfile",
    `pod or ${containersText(implicit)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
  );
};

/**
 * `capabilities_restricted` (1.22): every container drops ALL and adds at most
 * NET_BIND_SERVICE; replaces `capabilities_baseline`.
 */
const capabilitiesRestricted: CheckPodFn = (_meta, spec) => {
  const missingDropAll: string[] = [];
  const addingForbidden: string[] = [];
  const forbiddenCaps: string[] = [];
  visitContainers(spec, (c) => {
    const caps = c.securityContext?.capabilities;
    if (!isSet(caps)) {
      missingDropAll.push(c.name);
      return;
    }
    if (!list(caps.drop).includes("ALL")) missingDropAll.push(c.name);
    const extra = list(caps.add).filter((cap) => cap !== "NET_BIND_SERVICE");
    if (extra.length > 0) {
      addingForbidden.push(c.name);
      forbiddenCaps.push(...extra);
    }
  });
  const details: string[] = [];
  if (missingDropAll.length > 0) {
    details.push(
      `${containersText(missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`,
    );
  }
  if (addingForbidden.length > 0) {
    details.push(
      `${containersText(addingForbidden)} must not include ${joinQuote(sortedSet(forbiddenCaps))} in securityContext.capabilities.add`,
    );
  }
  return details.length === 0
    ? allowed
    : forbidden("unrestricted capabilities", details.join("; "));
};

export const restrictedChecks: readonly Check[] = [
  {
    id: "restrictedVolumes",
    level: "restricted",
    versions: [{ minimumVersion: 0, checkPod: restrictedVolumes, overrides: ["hostPathVolumes"] }],
  },
  {
    id: "allowPrivilegeEscalation",
    level: "restricted",
    versions: [
      { minimumVersion: 8, checkPod: allowPrivilegeEscalation1Dot8 },
      { minimumVersion: 25, checkPod: linuxOnly(allowPrivilegeEscalation1Dot8) },
    ],
  },
  {
    id: "runAsNonRoot",
    level: "restricted",
    versions: [
      { minimumVersion: 0, checkPod: runAsNonRoot },
      { minimumVersion: 35, checkPod: exceptUserNamespaces(runAsNonRoot) },
    ],
  },
  {
    id: "runAsUser",
    level: "restricted",
    versions: [
      { minimumVersion: 23, checkPod: runAsUser },
      { minimumVersion: 35, checkPod: exceptUserNamespaces(runAsUser) },
    ],
  },
  {
    id: "seccompProfile_restricted",
    level: "restricted",
    versions: [
      {
        minimumVersion: 19,
        checkPod: seccompProfileRestricted,
        overrides: ["seccompProfile_baseline"],
      },
      {
        minimumVersion: 25,
        checkPod: linuxOnly(seccompProfileRestricted),
        overrides: ["seccompProfile_baseline"],
      },
    ],
  },
  {
    id: "capabilities_restricted",
    level: "restricted",
    versions: [
      {
        minimumVersion: 22,
        checkPod: capabilitiesRestricted,
        overrides: ["capabilities_baseline"],
      },
      {
        minimumVersion: 25,
        checkPod: linuxOnly(capabilitiesRestricted),
        overrides: ["capabilities_baseline"],
      },
    ],
  },
  {
    id: "procMount_restricted",
    level: "restricted",
    versions: [{ minimumVersion: 35, checkPod: procMountDefaultOnly, overrides: ["procMount"] }],
  },
];
