/**
 * ServiceAccount (upstream's plugin/pkg/admission/serviceaccount): a new pod runs as
 * `spec.serviceAccountName` (`default` when empty), which must exist; unless the pod or its
 * service account turns `automountServiceAccountToken` off, every container and init container
 * mounts a projected `kube-api-access-xxxxx` volume (a bound token, the cluster CA and the
 * namespace) read-only at /var/run/secrets/kubernetes.io/serviceaccount; a pod without image
 * pull secrets gets the service account's. Mirror pods may reference none of it.
 */
import {
  type Container,
  forbidden,
  type KubeObject,
  type LocalObjectReference,
  type Pod,
  type PodSpec,
  type Volume,
} from "../../../api/index.ts";
import type { Clock, JsonObject, Random } from "../../../util/index.ts";
import {
  type AdmissionAttributes,
  type AdmissionDecision,
  type AdmissionPlugin,
  admit,
  type ObjectReader,
} from "../admission.ts";

export const name = "ServiceAccount";

/** The service account of a pod that names none. */
export const defaultServiceAccountName = "default";

/** A service account with this annotation "true" limits the secrets its pods may reference. */
export const enforceMountableSecretsAnnotation = "kubernetes.io/enforce-mountable-secrets";

/** The prefix of the projected token volume's generated name. */
export const serviceAccountVolumeName = "kube-api-access";

/** Where every container finds the token, `ca.crt` and `namespace`. */
export const defaultApiTokenMountPath = "/var/run/secrets/kubernetes.io/serviceaccount";

/** `WarnOnlyBoundTokenExpirationSeconds`: the lifetime the projected token asks for. */
export const projectedTokenExpirationSeconds = 3607;

const mirrorPodAnnotation = "kubernetes.io/config.mirror";

/** How many live lookups of the `default` service account before refusing (upstream's 10). */
const defaultAccountAttempts = 10;

export interface ServiceAccountAdmissionOptions {
  /** Sleeps between live lookups of a `default` service account not seen yet. */
  readonly clock: Clock;
  /** The lookup interval (100–199 ms) and the volume name's suffix. */
  readonly random: Random;
}

/** `TokenVolumeSource()`: the projected volume, with the 0644 default mode filled in. */
export function tokenVolume(volumeName: string): Volume {
  return {
    name: volumeName,
    projected: {
      sources: [
        {
          serviceAccountToken: {
            expirationSeconds: projectedTokenExpirationSeconds,
            path: "token",
          },
        },
        { configMap: { name: "kube-root-ca.crt", items: [{ key: "ca.crt", path: "ca.crt" }] } },
        {
          downwardAPI: {
            items: [
              {
                path: "namespace",
                fieldRef: { apiVersion: "v1", fieldPath: "metadata.namespace" },
              },
            ],
          },
        },
      ],
      defaultMode: 0o644,
    },
  };
}

/** `SimpleNameGenerator`: the base and five characters of upstream's alphabet. */
function generateName(base: string, random: Random): string {
  const alphabet = "bcdfghjklmnpqrstvwxz2456789";
  let suffix = "";
  for (let i = 0; i < 5; i++) suffix += alphabet[random.int(alphabet.length)];
  return `${base.slice(0, 58)}${suffix}`;
}

export function newServiceAccountAdmission(
  reader: ObjectReader,
  options: ServiceAccountAdmissionOptions,
): AdmissionPlugin {
  const { clock, random } = options;

  /** The service account: the cache, then live lookups (ten for `default`, made by a controller). */
  const serviceAccount = async (
    namespace: string,
    accountName: string,
  ): Promise<JsonObject | undefined> => {
    const cached = reader.get("serviceaccounts", namespace, accountName);
    if (cached !== undefined) return cached;
    const attempts = accountName === defaultServiceAccountName ? defaultAccountAttempts : 1;
    const intervalMs = 100 + random.int(100);
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) await clock.sleep(intervalMs);
      const fresh = await reader.getFresh("serviceaccounts", namespace, accountName);
      if (fresh !== undefined) return fresh;
    }
    return undefined;
  };

  const refuse = (a: AdmissionAttributes, pod: Pod, message: string): AdmissionDecision => {
    // Upstream's mutating phase runs before the name is generated: it names the generateName.
    const generate = pod.metadata.generateName ?? "";
    const podName = generate !== "" ? generate : a.name;
    return { allowed: false, error: forbidden({ group: "", resource: "pods" }, podName, message) };
  };

  const lookUp = async (
    a: AdmissionAttributes,
    pod: Pod,
  ): Promise<{ account: JsonObject } | { refusal: AdmissionDecision }> => {
    const accountName = pod.spec.serviceAccountName ?? "";
    const account = await serviceAccount(a.namespace, accountName);
    if (account !== undefined) return { account };
    return {
      refusal: refuse(
        a,
        pod,
        `error looking up service account ${a.namespace}/${accountName}: serviceaccount "${accountName}" not found`,
      ),
    };
  };

  /** A namespace that is missing or terminating is NamespaceLifecycle's to refuse. */
  const namespaceGone = async (namespace: string): Promise<boolean> => {
    const ns =
      reader.get("namespaces", "", namespace) ??
      (await reader.getFresh("namespaces", "", namespace));
    if (ns === undefined) return true;
    const meta = ns["metadata"] as { deletionTimestamp?: string } | undefined;
    const phase = (ns["status"] as { phase?: string } | undefined)?.phase;
    return meta?.deletionTimestamp !== undefined || phase === "Terminating";
  };

  return {
    name,
    handles: (a) =>
      a.operation === "CREATE" &&
      a.group === "" &&
      a.resource === "pods" &&
      a.subresource === "" &&
      a.object !== undefined,
    async mutate(a) {
      const pod = a.object as Pod;
      pod.spec ??= {} as PodSpec;
      if (isMirrorPod(pod)) return validateMirrorPod(a, pod);
      if (await namespaceGone(a.namespace)) return admit;
      const accountName = pod.spec.serviceAccountName ?? "";
      pod.spec.serviceAccountName = accountName === "" ? defaultServiceAccountName : accountName;
      // The deprecated alias reads back as the name, as upstream's v1 conversion prints it.
      pod.spec.serviceAccount = pod.spec.serviceAccountName;
      const found = await lookUp(a, pod);
      if ("refusal" in found) return found.refusal;
      if (shouldAutomount(found.account, pod)) mountServiceAccountToken(pod, random);
      const pullSecrets = (found.account["imagePullSecrets"] ?? []) as LocalObjectReference[];
      if ((pod.spec.imagePullSecrets ?? []).length === 0 && pullSecrets.length > 0) {
        pod.spec.imagePullSecrets = pullSecrets.map((s) => ({ name: s.name ?? "" }));
      }
      return admit;
    },
    async validate(a) {
      const pod = a.object as Pod;
      if (isMirrorPod(pod)) return validateMirrorPod(a, pod);
      if (await namespaceGone(a.namespace)) return admit;
      const found = await lookUp(a, pod);
      if ("refusal" in found) return found.refusal;
      const problem = enforcesMountableSecrets(found.account)
        ? unmountableSecret(found.account, pod)
        : undefined;
      return problem === undefined ? admit : refuse(a, pod, problem);
    },
  };

  function validateMirrorPod(a: AdmissionAttributes, pod: Pod): AdmissionDecision {
    if ((pod.spec.serviceAccountName ?? "") !== "") {
      return refuse(a, pod, "a mirror pod may not reference service accounts");
    }
    if (referencesSecrets(pod.spec))
      return refuse(a, pod, "a mirror pod may not reference secrets");
    const projectsToken = (pod.spec.volumes ?? []).some((v) =>
      (v.projected?.sources ?? []).some((s) => s.serviceAccountToken !== undefined),
    );
    if (projectsToken) {
      return refuse(a, pod, "a mirror pod may not use ServiceAccountToken volume projections");
    }
    return admit;
  }
}

function isMirrorPod(pod: KubeObject): boolean {
  return pod.metadata.annotations?.[mirrorPodAnnotation] !== undefined;
}

/** The pod's preference wins, then the service account's; mounting is the default. */
function shouldAutomount(account: JsonObject, pod: Pod): boolean {
  if (pod.spec.automountServiceAccountToken !== undefined) {
    return pod.spec.automountServiceAccountToken;
  }
  const fromAccount = account["automountServiceAccountToken"];
  return typeof fromAccount === "boolean" ? fromAccount : true;
}

/**
 * Mounts the token volume in every container and init container that has nothing mounted at
 * the token path yet, adding the volume (or reusing an existing `kube-api-access-*` one) when
 * any container needs it.
 */
function mountServiceAccountToken(pod: Pod, random: Random): void {
  const spec = pod.spec;
  const existing = (spec.volumes ?? []).find((v) =>
    v.name.startsWith(`${serviceAccountVolumeName}-`),
  );
  const volumeName = existing?.name ?? generateName(`${serviceAccountVolumeName}-`, random);
  let needsVolume = false;
  const mount = (containers: Container[] | undefined): void => {
    for (const container of containers ?? []) {
      const mounts = container.volumeMounts ?? [];
      if (mounts.some((m) => m.mountPath === defaultApiTokenMountPath)) continue;
      container.volumeMounts = [
        ...mounts,
        { name: volumeName, readOnly: true, mountPath: defaultApiTokenMountPath },
      ];
      needsVolume = true;
    }
  };
  mount(spec.initContainers);
  mount(spec.containers);
  if (existing === undefined && needsVolume)
    spec.volumes = [...(spec.volumes ?? []), tokenVolume(volumeName)];
}

function enforcesMountableSecrets(account: JsonObject): boolean {
  const annotations = (account["metadata"] as { annotations?: Record<string, string> } | undefined)
    ?.annotations;
  const value = annotations?.[enforceMountableSecretsAnnotation];
  // Go's strconv.ParseBool; anything else means false.
  return value !== undefined && ["1", "t", "T", "TRUE", "true", "True"].includes(value);
}

/** `limitSecretReferences`: the first secret reference the service account does not list. */
function unmountableSecret(account: JsonObject, pod: Pod): string | undefined {
  const accountName = (account["metadata"] as { name?: string } | undefined)?.name ?? "";
  const mountable = new Set(
    ((account["secrets"] ?? []) as { name?: string }[]).map((s) => s.name ?? ""),
  );
  for (const volume of pod.spec.volumes ?? []) {
    const secretName = volume.secret?.secretName;
    if (secretName !== undefined && !mountable.has(secretName)) {
      return `volume with secret.secretName="${secretName}" is not allowed because service account ${accountName} does not reference that secret`;
    }
  }
  const envProblem = (containers: Container[] | undefined, what: string): string | undefined => {
    for (const container of containers ?? []) {
      for (const env of container.env ?? []) {
        const ref = env.valueFrom?.secretKeyRef?.name;
        if (ref !== undefined && !mountable.has(ref)) {
          return `${what} ${container.name} with envVar ${env.name} referencing secret.secretName="${ref}" is not allowed because service account ${accountName} does not reference that secret`;
        }
      }
    }
    return undefined;
  };
  const env =
    envProblem(pod.spec.initContainers, "init container") ??
    envProblem(pod.spec.containers, "container");
  if (env !== undefined) return env;
  const pullable = new Set(
    ((account["imagePullSecrets"] ?? []) as { name?: string }[]).map((s) => s.name ?? ""),
  );
  const pullSecrets = pod.spec.imagePullSecrets ?? [];
  for (const [i, ref] of pullSecrets.entries()) {
    if (!pullable.has(ref.name ?? "")) {
      return `imagePullSecrets[${i}].name="${ref.name ?? ""}" is not allowed because service account ${accountName} does not reference that imagePullSecret`;
    }
  }
  return undefined;
}

/** `VisitPodSecretNames` over every container kind: whether the pod names any secret. */
function referencesSecrets(spec: PodSpec): boolean {
  if ((spec.imagePullSecrets ?? []).length > 0) return true;
  for (const volume of spec.volumes ?? []) {
    if (volume.secret !== undefined) return true;
    if ((volume.projected?.sources ?? []).some((s) => s.secret !== undefined)) return true;
    if (hasSecretRef(volume)) return true;
  }
  const containers = [
    ...(spec.initContainers ?? []),
    ...(spec.containers ?? []),
    ...(spec.ephemeralContainers ?? []),
  ];
  return containers.some(
    (c) =>
      (c.envFrom ?? []).some((e) => e.secretRef !== undefined) ||
      (c.env ?? []).some((e) => e.valueFrom?.secretKeyRef !== undefined),
  );
}

/** Volume sources kept as sent (csi, cephfs, rbd, …) that name a secret. */
function hasSecretRef(volume: Volume): boolean {
  for (const [key, source] of Object.entries(volume)) {
    if (key === "name" || typeof source !== "object" || source === null) continue;
    const record = source as Record<string, unknown>;
    if (record["secretRef"] !== undefined || record["nodePublishSecretRef"] !== undefined) {
      return true;
    }
  }
  return false;
}
