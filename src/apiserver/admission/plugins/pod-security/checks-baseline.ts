/**
 * Baseline checks on the containers' security settings: privileged, added capabilities, AppArmor,
 * SELinux, /proc mount and seccomp. IDs, reasons and details as upstream's `policy/check_*.go`.
 */
import {
  allowed,
  type Check,
  type CheckPodFn,
  containersText,
  forbidden,
  goQuote,
  inUserNamespace,
  isSet,
  joinQuote,
  list,
  pluralize,
  sortedSet,
  visitContainers,
} from "./check.ts";

/** `privileged` (1.0): no privileged containers. */
const privileged: CheckPodFn = (_meta, spec) => {
  const bad: string[] = [];
  visitContainers(spec, (c) => {
    if (c.securityContext?.privileged === true) bad.push(c.name);
  });
  if (bad.length === 0) return allowed;
  return forbidden(
    "privileged",
    `${containersText(bad)} must not set securityContext.privileged=true`,
  );
};

const defaultCapabilities = new Set([
  "AUDIT_WRITE",
  "CHOWN",
  "DAC_OVERRIDE",
  "FOWNER",
  "FSETID",
  "KILL",
  "MKNOD",
  "NET_BIND_SERVICE",
  "SETFCAP",
  "SETGID",
  "SETPCAP",
  "SETUID",
  "SYS_CHROOT",
]);

/** `capabilities_baseline` (1.0): only the container runtime's default capabilities may be added. */
const capabilitiesBaseline: CheckPodFn = (_meta, spec) => {
  const containers: string[] = [];
  const added: string[] = [];
  visitContainers(spec, (c) => {
    const extra = list(c.securityContext?.capabilities?.add).filter(
      (cap) => !defaultCapabilities.has(cap),
    );
    if (extra.length === 0) return;
    containers.push(c.name);
    added.push(...extra);
  });
  if (containers.length === 0) return allowed;
  return forbidden(
    "non-default capabilities",
    `${containersText(containers)} must not include ${joinQuote(sortedSet(added))} in securityContext.capabilities.add`,
  );
};

const appArmorAnnotationPrefix = "container.apparmor.security.beta.kubernetes.io/";

function allowedAppArmorAnnotation(value: string): boolean {
  return value === "" || value === "runtime/default" || value.startsWith("localhost/");
}

function allowedAppArmorType(type: unknown): boolean {
  return type === "RuntimeDefault" || type === "Localhost";
}

/**
 * `appArmorProfile` (1.0; the field checks apply at every version since 1.30's binaries): the
 * AppArmor profile, by field or by the deprecated annotation, may only be the runtime default or
 * a localhost profile.
 */
const appArmorProfile: CheckPodFn = (meta, spec) => {
  const setters: string[] = [];
  const values: string[] = [];
  const podProfile = spec.securityContext?.appArmorProfile;
  if (isSet(podProfile) && !allowedAppArmorType(podProfile.type)) {
    setters.push("pod");
    values.push(String(podProfile.type ?? ""));
  }
  const containers: string[] = [];
  visitContainers(spec, (c) => {
    const profile = c.securityContext?.appArmorProfile;
    if (!isSet(profile) || allowedAppArmorType(profile.type)) return;
    containers.push(c.name);
    values.push(String(profile.type ?? ""));
  });
  if (containers.length > 0) setters.push(containersText(containers));
  const annotations = Object.entries(meta.annotations ?? {})
    .filter(([k, v]) => k.startsWith(appArmorAnnotationPrefix) && !allowedAppArmorAnnotation(v))
    .map(([k, v]) => `${k}=${goQuote(v)}`)
    .sort();
  const badValues = [...sortedSet(values), ...annotations];
  if (annotations.length > 0) {
    setters.push(pluralize("annotation", "annotations", annotations.length));
  }
  if (setters.length === 0) return allowed;
  return forbidden(
    pluralize("forbidden AppArmor profile", "forbidden AppArmor profiles", badValues.length),
    `${setters.join(" and ")} must not set AppArmor profile type to ${joinQuote(badValues)}`,
  );
};

const seLinuxTypes1Dot0 = ["", "container_t", "container_init_t", "container_kvm_t"];
const seLinuxTypes1Dot31 = [...seLinuxTypes1Dot0, "container_engine_t"];

/** `seLinuxOptions`: only the container SELinux types; user and role may not be set. */
function seLinuxOptionsCheck(types: readonly string[]): CheckPodFn {
  const allowedTypes = new Set(types);
  return (_meta, spec) => {
    const badTypes: string[] = [];
    let setUser = false;
    let setRole = false;
    const valid = (opts: { type?: string; user?: string; role?: string }): boolean => {
      let ok = true;
      if (!allowedTypes.has(opts.type ?? "")) {
        ok = false;
        badTypes.push(opts.type ?? "");
      }
      if ((opts.user ?? "") !== "") {
        ok = false;
        setUser = true;
      }
      if ((opts.role ?? "") !== "") {
        ok = false;
        setRole = true;
      }
      return ok;
    };
    const setters: string[] = [];
    const podOptions = spec.securityContext?.seLinuxOptions;
    if (isSet(podOptions) && !valid(podOptions)) setters.push("pod");
    const containers: string[] = [];
    visitContainers(spec, (c) => {
      const options = c.securityContext?.seLinuxOptions;
      if (isSet(options) && !valid(options)) containers.push(c.name);
    });
    if (containers.length > 0) setters.push(containersText(containers));
    if (setters.length === 0) return allowed;
    const data: string[] = [];
    const distinctTypes = sortedSet(badTypes);
    if (distinctTypes.length > 0) {
      data.push(`${pluralize("type", "types", distinctTypes.length)} ${joinQuote(distinctTypes)}`);
    }
    if (setUser) data.push("user may not be set");
    if (setRole) data.push("role may not be set");
    return forbidden(
      "seLinuxOptions",
      `${setters.join(" and ")} set forbidden securityContext.seLinuxOptions: ${data.join("; ")}`,
    );
  };
}

/** `procMount` as 1.0 wrote it: containers may only use the default /proc masks. */
export const procMountDefaultOnly: CheckPodFn = (_meta, spec) => {
  const containers: string[] = [];
  const types: string[] = [];
  visitContainers(spec, (c) => {
    const procMount = c.securityContext?.procMount;
    if (!isSet(procMount) || procMount === "Default") return;
    containers.push(c.name);
    types.push(procMount);
  });
  if (containers.length === 0) return allowed;
  return forbidden(
    "procMount",
    `${containersText(containers)} must not set securityContext.procMount to ${joinQuote(sortedSet(types))}`,
  );
};

/** `procMount` (1.35): any /proc mount for pods in a user namespace. */
const procMountBaseline1Dot35: CheckPodFn = (meta, spec) =>
  inUserNamespace(spec) ? allowed : procMountDefaultOnly(meta, spec);

const seccompPodAnnotation = "seccomp.security.alpha.kubernetes.io/pod";
const seccompContainerAnnotationPrefix = "container.seccomp.security.alpha.kubernetes.io/";

function validSeccompAnnotation(value: string): boolean {
  return (
    value === "runtime/default" || value === "docker/default" || value.startsWith("localhost/")
  );
}

/** `seccompProfile_baseline` before 1.19: the alpha seccomp annotations. */
const seccompBaselineAnnotations: CheckPodFn = (meta, spec) => {
  const annotations = meta.annotations ?? {};
  const bad: string[] = [];
  const podValue = annotations[seccompPodAnnotation];
  if (podValue !== undefined && !validSeccompAnnotation(podValue)) {
    bad.push(`${seccompPodAnnotation}=${goQuote(podValue)}`);
  }
  visitContainers(spec, (c) => {
    const key = seccompContainerAnnotationPrefix + c.name;
    const value = annotations[key];
    if (value !== undefined && !validSeccompAnnotation(value)) {
      bad.push(`${key}=${goQuote(value)}`);
    }
  });
  const distinct = sortedSet(bad);
  if (distinct.length === 0) return allowed;
  return forbidden(
    "seccompProfile",
    `forbidden ${pluralize("annotation", "annotations", distinct.length)} ${distinct.join(", ")}`,
  );
};

export function validSeccompType(type: unknown): boolean {
  return type === "RuntimeDefault" || type === "Localhost";
}

/** `seccompProfile_baseline` (1.19): a seccomp profile, where set, is RuntimeDefault or Localhost. */
const seccompBaselineFields: CheckPodFn = (_meta, spec) => {
  const setters: string[] = [];
  const values: string[] = [];
  const podProfile = spec.securityContext?.seccompProfile;
  if (isSet(podProfile) && !validSeccompType(podProfile.type)) {
    setters.push("pod");
    values.push(String(podProfile.type ?? ""));
  }
  const containers: string[] = [];
  visitContainers(spec, (c) => {
    const profile = c.securityContext?.seccompProfile;
    if (!isSet(profile) || validSeccompType(profile.type)) return;
    containers.push(c.name);
    values.push(String(profile.type ?? ""));
  });
  if (containers.length > 0) setters.push(containersText(containers));
  if (setters.length === 0) return allowed;
  return forbidden(
    "seccompProfile",
    `${setters.join(" and ")} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(values))}`,
  );
};

export const baselineChecks: readonly Check[] = [
  { id: "privileged", level: "baseline", versions: [{ minimumVersion: 0, checkPod: privileged }] },
  {
    id: "capabilities_baseline",
    level: "baseline",
    versions: [{ minimumVersion: 0, checkPod: capabilitiesBaseline }],
  },
  {
    id: "appArmorProfile",
    level: "baseline",
    versions: [{ minimumVersion: 0, checkPod: appArmorProfile }],
  },
  {
    id: "seLinuxOptions",
    level: "baseline",
    versions: [
      { minimumVersion: 0, checkPod: seLinuxOptionsCheck(seLinuxTypes1Dot0) },
      { minimumVersion: 31, checkPod: seLinuxOptionsCheck(seLinuxTypes1Dot31) },
    ],
  },
  {
    id: "procMount",
    level: "baseline",
    versions: [
      { minimumVersion: 0, checkPod: procMountDefaultOnly },
      { minimumVersion: 35, checkPod: procMountBaseline1Dot35 },
    ],
  },
  {
    id: "seccompProfile_baseline",
    level: "baseline",
    versions: [
      { minimumVersion: 0, checkPod: seccompBaselineAnnotations },
      { minimumVersion: 19, checkPod: seccompBaselineFields },
    ],
  },
];
