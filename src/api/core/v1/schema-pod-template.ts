/** Named schemas of PodSpec and everything it contains, with strategic-merge/SSA list metadata. */
import { metaDefinitionNames as m } from "../../meta/schema.ts";
import {
  anyValue,
  atomicList,
  bool,
  int32,
  int64,
  mapList,
  mapOf,
  obj,
  str,
  stringMap,
} from "../../schema/builders.ts";
import { type Definitions, ref, type Schema } from "../../schema/schema.ts";

/** `io.k8s.api.core.v1.<name>`. */
export function coreName(name: string): string {
  return `io.k8s.api.core.v1.${name}`;
}

/** A `$ref` to a core/v1 definition. */
export function core(name: string, description?: string): Schema {
  return ref(coreName(name), description);
}

export const quantityRef = (description?: string): Schema => ref(m.quantity, description);
export const intOrStringRef = (description?: string): Schema => ref(m.intOrString, description);
export const timeRef = (description?: string): Schema => ref(m.time, description);

/** `map[ResourceName]Quantity`. */
export function resourceList(description: string): Schema {
  return mapOf(quantityRef(), description);
}

/** A `map[string]string` replaced whole by patches (`+mapType=atomic`). */
export function atomicMap(description: string): Schema {
  return { ...stringMap(description), "x-kubernetes-map-type": "atomic" };
}

const strings = (description: string): Schema => atomicList(str(), description);

const handlerProps = {
  exec: core("ExecAction", "Exec specifies a command to execute in the container."),
  httpGet: core("HTTPGetAction", "HTTPGet specifies an HTTP GET request to perform."),
  tcpSocket: core("TCPSocketAction", "TCPSocket specifies a connection to a TCP port."),
};

export const podTemplateDefinitions: Definitions = {
  [coreName("PodTemplateSpec")]: obj(
    {
      metadata: ref(m.objectMeta, "Standard object's metadata."),
      spec: core("PodSpec", "Specification of the desired behavior of the pod."),
    },
    {
      description:
        "PodTemplateSpec describes the data a pod should have when created from a template.",
    },
  ),
  [coreName("PodSpec")]: obj(
    {
      volumes: mapList(core("Volume"), "name", {
        patchStrategy: "merge,retainKeys",
        description: "List of volumes that can be mounted by containers belonging to the pod.",
      }),
      initContainers: mapList(core("Container"), "name", {
        description:
          "List of initialization containers belonging to the pod, run in order before the app containers.",
      }),
      containers: mapList(core("Container"), "name", {
        description: "List of containers belonging to the pod; there must be at least one.",
      }),
      ephemeralContainers: mapList(core("EphemeralContainer"), "name", {
        description:
          "List of ephemeral containers run in this pod for debugging; added through a subresource.",
      }),
      restartPolicy: str(
        "Restart policy for all containers within the pod: Always, OnFailure or Never. Default Always.",
      ),
      terminationGracePeriodSeconds: int64(
        "Duration in seconds the pod needs to terminate gracefully. Default 30.",
      ),
      activeDeadlineSeconds: int64(
        "Duration in seconds the pod may be active on the node before the system actively tries to mark it failed.",
      ),
      dnsPolicy: str("Set DNS policy for the pod. Defaults to ClusterFirst."),
      nodeSelector: atomicMap("A selector which must be true for the pod to fit on a node."),
      serviceAccountName: str("The name of the ServiceAccount to use to run this pod."),
      serviceAccount: str("Deprecated alias for ServiceAccountName."),
      automountServiceAccountToken: bool(
        "Whether a service account token should be automatically mounted.",
      ),
      nodeName: str(
        "A request to schedule this pod onto a specific node; set by the scheduler when binding.",
      ),
      hostNetwork: bool("Host networking requested for this pod."),
      hostPID: bool("Use the host's pid namespace."),
      hostIPC: bool("Use the host's ipc namespace."),
      shareProcessNamespace: bool(
        "Share a single process namespace between all of the containers in a pod.",
      ),
      securityContext: core(
        "PodSecurityContext",
        "Pod-level security attributes and common container settings.",
      ),
      imagePullSecrets: mapList(core("LocalObjectReference"), "name", {
        description:
          "References to secrets in the same namespace to use for pulling any of the images.",
      }),
      hostname: str("Specifies the hostname of the Pod; defaults to the pod's name."),
      subdomain: str(
        'The pod\'s hostname will be "<hostname>.<subdomain>.<namespace>.svc.<cluster domain>".',
      ),
      affinity: core("Affinity", "The pod's scheduling constraints."),
      schedulerName: str(
        "The pod will be dispatched by the specified scheduler; default-scheduler if unset.",
      ),
      tolerations: atomicList(core("Toleration"), "The pod's tolerations."),
      hostAliases: mapList(core("HostAlias"), "ip", {
        description: "An optional list of hosts and IPs injected into the pod's hosts file.",
      }),
      priorityClassName: str("The name of the pod's PriorityClass; decides the pod's priority."),
      priority: int32(
        "The priority value, populated from PriorityClassName by the Priority admission controller.",
      ),
      dnsConfig: core("PodDNSConfig", "The DNS parameters of a pod."),
      readinessGates: atomicList(
        core("PodReadinessGate"),
        "Additional conditions evaluated for pod readiness.",
      ),
      runtimeClassName: str("The RuntimeClass used to run this pod."),
      enableServiceLinks: bool(
        "Whether information about services is injected into the pod's environment variables.",
      ),
      preemptionPolicy: str(
        "Policy for preempting pods with lower priority: Never or PreemptLowerPriority (default).",
      ),
      overhead: resourceList("The resource overhead of running the pod for its RuntimeClass."),
      topologySpreadConstraints: mapList(core("TopologySpreadConstraint"), "topologyKey", {
        mapKeys: ["topologyKey", "whenUnsatisfiable"],
        description: "How a group of pods ought to spread across topology domains.",
      }),
      setHostnameAsFQDN: bool("If true the pod's hostname will be configured as the pod's FQDN."),
      os: core("PodOS", "The OS of the containers in the pod."),
      hostUsers: bool("Use the host's user namespace."),
      schedulingGates: mapList(core("PodSchedulingGate"), "name", {
        description: "Gates that block scheduling while any remain; they may only be removed.",
      }),
      resourceClaims: mapList(core("PodResourceClaim"), "name", {
        patchStrategy: "merge,retainKeys",
        description: "ResourceClaims that must be allocated and reserved before the pod may start.",
      }),
      resources: core(
        "ResourceRequirements",
        "The total amount of CPU and memory resources required by all containers.",
      ),
      hostnameOverride: str("Overrides the hostname the pod sees."),
      workloadRef: core(
        "WorkloadReference",
        "The gang-scheduling group this pod belongs to; immutable.",
      ),
    },
    { description: "PodSpec is a description of a pod.", required: ["containers"] },
  ),
  [coreName("WorkloadReference")]: obj(
    {
      name: str("The name of the Workload object in the same namespace."),
      podGroupName: str(
        "The name of a standalone PodGroup in the same namespace; exclusive with podGroup.",
      ),
      podGroup: str("The name of a pod group of the Workload; exclusive with podGroupName."),
      podGroupReplicaKey: str("Distinguishes replicas of the same pod group; only with podGroup."),
    },
    {
      description: "WorkloadReference identifies the Workload and pod group a pod belongs to.",
      required: ["name"],
    },
  ),
  [coreName("Container")]: containerSchema(
    "A single application container that you want to run within a pod.",
  ),
  [coreName("EphemeralContainer")]: (() => {
    const s = containerSchema(
      "A temporary container added to an existing pod for user-initiated activities such as debugging.",
    );
    return {
      ...s,
      properties: {
        ...s.properties,
        targetContainerName: str("The name of the container this one targets."),
      },
    };
  })(),
  [coreName("ContainerPort")]: obj(
    {
      name: str("An IANA_SVC_NAME, unique within the pod; referred to by services."),
      hostPort: int32("Number of port to expose on the host."),
      containerPort: int32("Number of port to expose on the pod's IP address."),
      protocol: str('Protocol for port: UDP, TCP, or SCTP. Defaults to "TCP".'),
      hostIP: str("What host IP to bind the external port to."),
    },
    {
      description: "ContainerPort represents a network port in a single container.",
      required: ["containerPort"],
    },
  ),
  [coreName("EnvVar")]: obj(
    {
      name: str("Name of the environment variable."),
      value: str("Variable value, with $(VAR_NAME) references expanded."),
      valueFrom: core("EnvVarSource", "Source for the environment variable's value."),
    },
    {
      description: "EnvVar represents an environment variable present in a Container.",
      required: ["name"],
    },
  ),
  [coreName("EnvVarSource")]: obj(
    {
      fieldRef: core("ObjectFieldSelector", "Selects a field of the pod."),
      resourceFieldRef: core("ResourceFieldSelector", "Selects a resource of the container."),
      configMapKeyRef: core("ConfigMapKeySelector", "Selects a key of a ConfigMap."),
      secretKeyRef: core("SecretKeySelector", "Selects a key of a secret in the pod's namespace."),
      fileKeyRef: anyValue("Selects a key of an env file."),
    },
    { description: "EnvVarSource represents a source for the value of an EnvVar." },
  ),
  [coreName("EnvFromSource")]: obj(
    {
      prefix: str("An optional identifier to prepend to each key."),
      configMapRef: core("ConfigMapEnvSource", "The ConfigMap to select from."),
      secretRef: core("SecretEnvSource", "The Secret to select from."),
    },
    { description: "EnvFromSource represents the source of a set of ConfigMaps or Secrets." },
  ),
  [coreName("ConfigMapEnvSource")]: optionalRef(
    "Selects a ConfigMap to populate the environment variables with.",
  ),
  [coreName("SecretEnvSource")]: optionalRef(
    "Selects a Secret to populate the environment variables with.",
  ),
  [coreName("ConfigMapKeySelector")]: keySelector("Selects a key from a ConfigMap."),
  [coreName("SecretKeySelector")]: keySelector("SecretKeySelector selects a key of a Secret."),
  [coreName("ObjectFieldSelector")]: {
    ...obj(
      {
        apiVersion: str(
          'Version of the schema the FieldPath is written in terms of, defaults to "v1".',
        ),
        fieldPath: str("Path of the field to select in the specified API version."),
      },
      {
        description: "ObjectFieldSelector selects an APIVersioned field of an object.",
        required: ["fieldPath"],
      },
    ),
    "x-kubernetes-map-type": "atomic",
  },
  [coreName("ResourceFieldSelector")]: {
    ...obj(
      {
        containerName: str("Container name: required for volumes, optional for env vars."),
        resource: str("Required: resource to select."),
        divisor: quantityRef(
          'Specifies the output format of the exposed resources, defaults to "1".',
        ),
      },
      {
        description:
          "ResourceFieldSelector represents container resources (cpu, memory) and their output format.",
        required: ["resource"],
      },
    ),
    "x-kubernetes-map-type": "atomic",
  },
  [coreName("ResourceRequirements")]: obj(
    {
      limits: resourceList("The maximum amount of compute resources allowed."),
      requests: resourceList(
        "The minimum amount of compute resources required; defaults to limits if omitted.",
      ),
      claims: mapList(core("ResourceClaim"), "name", {
        description: "Names of resources, defined in spec.resourceClaims, used by this container.",
      }),
    },
    { description: "ResourceRequirements describes the compute resource requirements." },
  ),
  [coreName("ResourceClaim")]: obj(
    {
      name: str("Must match the name of one entry in pod.spec.resourceClaims."),
      request: str("The name of a request in the claim."),
    },
    {
      description: "ResourceClaim references one entry in PodSpec.ResourceClaims.",
      required: ["name"],
    },
  ),
  [coreName("ContainerResizePolicy")]: obj(
    {
      resourceName: str(
        "Name of the resource to which this resource resize policy applies: cpu, memory.",
      ),
      restartPolicy: str(
        "Restart policy to apply when the resource is resized: NotRequired or RestartContainer.",
      ),
    },
    {
      description: "ContainerResizePolicy represents resource resize policy for the container.",
      required: ["resourceName", "restartPolicy"],
    },
  ),
  [coreName("VolumeMount")]: obj(
    {
      name: str("This must match the Name of a Volume."),
      readOnly: bool("Mounted read-only if true, read-write otherwise."),
      recursiveReadOnly: str("Whether read-only mounts should be handled recursively."),
      mountPath: str("Path within the container at which the volume should be mounted."),
      subPath: str("Path within the volume from which the container's volume should be mounted."),
      mountPropagation: str(
        "How mounts are propagated from the host to container and the other way around.",
      ),
      subPathExpr: str(
        "Expanded path within the volume from which the container's volume should be mounted.",
      ),
    },
    {
      description: "VolumeMount describes a mounting of a Volume within a container.",
      required: ["name", "mountPath"],
    },
  ),
  [coreName("VolumeDevice")]: obj(
    {
      name: str("Must match the name of a persistentVolumeClaim in the pod."),
      devicePath: str("The path inside of the container that the device will be mapped to."),
    },
    {
      description: "volumeDevice describes a mapping of a raw block device within a container.",
      required: ["name", "devicePath"],
    },
  ),
  [coreName("Probe")]: obj(
    {
      ...handlerProps,
      grpc: core("GRPCAction", "GRPC specifies a GRPC HealthCheckRequest."),
      initialDelaySeconds: int32(
        "Number of seconds after the container has started before probes are initiated.",
      ),
      timeoutSeconds: int32(
        "Number of seconds after which the probe times out. Defaults to 1 second.",
      ),
      periodSeconds: int32("How often (in seconds) to perform the probe. Default to 10 seconds."),
      successThreshold: int32(
        "Minimum consecutive successes for the probe to be considered successful after having failed.",
      ),
      failureThreshold: int32(
        "Minimum consecutive failures for the probe to be considered failed after having succeeded.",
      ),
      terminationGracePeriodSeconds: int64(
        "Optional duration in seconds the pod needs to terminate gracefully upon probe failure.",
      ),
    },
    {
      description:
        "Probe describes a health check to be performed against a container to determine whether it is alive or ready to receive traffic.",
    },
  ),
  [coreName("ExecAction")]: obj(
    { command: strings("Command line to execute inside the container.") },
    { description: 'ExecAction describes a "run in container" action.' },
  ),
  [coreName("HTTPGetAction")]: obj(
    {
      path: str("Path to access on the HTTP server."),
      port: intOrStringRef("Name or number of the port to access on the container."),
      host: str("Host name to connect to, defaults to the pod IP."),
      scheme: str("Scheme to use for connecting to the host. Defaults to HTTP."),
      httpHeaders: atomicList(core("HTTPHeader"), "Custom headers to set in the request."),
    },
    {
      description: "HTTPGetAction describes an action based on HTTP Get requests.",
      required: ["port"],
    },
  ),
  [coreName("HTTPHeader")]: obj(
    { name: str("The header field name."), value: str("The header field value.") },
    {
      description: "HTTPHeader describes a custom header to be used in HTTP probes.",
      required: ["name", "value"],
    },
  ),
  [coreName("TCPSocketAction")]: obj(
    {
      port: intOrStringRef("Number or name of the port to access on the container."),
      host: str("Optional: Host name to connect to, defaults to the pod IP."),
    },
    {
      description: "TCPSocketAction describes an action based on opening a socket.",
      required: ["port"],
    },
  ),
  [coreName("GRPCAction")]: obj(
    {
      port: int32("Port number of the gRPC service."),
      service: str("Service is the name of the service to place in the gRPC HealthCheckRequest."),
    },
    { description: "GRPCAction specifies an action involving a GRPC service.", required: ["port"] },
  ),
  [coreName("Lifecycle")]: obj(
    {
      postStart: core("LifecycleHandler", "Called immediately after a container is created."),
      preStop: core("LifecycleHandler", "Called immediately before a container is terminated."),
      stopSignal: str("The signal sent to the container when it is stopped."),
    },
    {
      description:
        "Lifecycle describes actions that the management system should take in response to container lifecycle events.",
    },
  ),
  [coreName("LifecycleHandler")]: obj(
    {
      ...handlerProps,
      sleep: core("SleepAction", "Sleep represents a duration that the container should sleep."),
    },
    {
      description:
        "LifecycleHandler defines a specific action that should be taken in a lifecycle hook.",
    },
  ),
  [coreName("SleepAction")]: obj(
    { seconds: int64("Seconds is the number of seconds to sleep.") },
    { description: 'SleepAction describes a "sleep" action.', required: ["seconds"] },
  ),
  [coreName("SecurityContext")]: obj(
    {
      capabilities: core(
        "Capabilities",
        "The capabilities to add/drop when running containers. Note that this field cannot be set when spec.os.name is windows.",
      ),
      privileged: bool(
        "Run container in privileged mode. Processes in privileged containers are essentially equivalent to root on the host. Defaults to false. Note that this field cannot be set when spec.os.name is windows.",
      ),
      seLinuxOptions: core(
        "SELinuxOptions",
        "The SELinux context to be applied to the container. Note that this field cannot be set when spec.os.name is windows.",
      ),
      windowsOptions: core(
        "WindowsSecurityContextOptions",
        "The Windows specific settings applied to all containers. Note that this field cannot be set when spec.os.name is linux.",
      ),
      runAsUser: int64(
        "The UID to run the entrypoint of the container process. Defaults to user specified in image metadata if unspecified. Note that this field cannot be set when spec.os.name is windows.",
      ),
      runAsGroup: int64(
        "The GID to run the entrypoint of the container process. Uses runtime default if unset. Note that this field cannot be set when spec.os.name is windows.",
      ),
      runAsNonRoot: bool(
        "Indicates that the container must run as a non-root user. If true, the Kubelet will validate the image at runtime to ensure that it does not run as UID 0 (root) and fail to start the container if it does.",
      ),
      readOnlyRootFilesystem: bool(
        "Whether this container has a read-only root filesystem. Default is false. Note that this field cannot be set when spec.os.name is windows.",
      ),
      allowPrivilegeEscalation: bool(
        "AllowPrivilegeEscalation controls whether a process can gain more privileges than its parent process. Note that this field cannot be set when spec.os.name is windows.",
      ),
      procMount: str(
        "procMount denotes the type of proc mount to use for the containers. The default value is Default which uses the container runtime defaults for readonly paths and masked paths. Note that this field cannot be set when spec.os.name is windows.",
      ),
      seccompProfile: core(
        "SeccompProfile",
        "The seccomp options to use by this container. If seccomp options are provided at both the pod & container level, the container options override the pod options. Note that this field cannot be set when spec.os.name is windows.",
      ),
      appArmorProfile: core(
        "AppArmorProfile",
        "appArmorProfile is the AppArmor options to use by this container. If set, this profile overrides the pod's appArmorProfile. Note that this field cannot be set when spec.os.name is windows.",
      ),
    },
    {
      description:
        "SecurityContext holds security configuration that will be applied to a container. Some fields are present in both SecurityContext and PodSecurityContext.  When both are set, the values in SecurityContext take precedence.",
    },
  ),
  [coreName("PodSecurityContext")]: obj(
    {
      seLinuxOptions: core(
        "SELinuxOptions",
        "The SELinux context to be applied to all containers. Note that this field cannot be set when spec.os.name is windows.",
      ),
      windowsOptions: core(
        "WindowsSecurityContextOptions",
        "The Windows specific settings applied to all containers. Note that this field cannot be set when spec.os.name is linux.",
      ),
      runAsUser: int64(
        "The UID to run the entrypoint of the container process. Defaults to user specified in image metadata if unspecified. Note that this field cannot be set when spec.os.name is windows.",
      ),
      runAsGroup: int64(
        "The GID to run the entrypoint of the container process. Uses runtime default if unset. Note that this field cannot be set when spec.os.name is windows.",
      ),
      runAsNonRoot: bool("Indicates that the container must run as a non-root user."),
      supplementalGroups: atomicList(
        int64(),
        "A list of groups applied to the first process run in each container, in addition to the container's primary GID and fsGroup (if specified). Note that this field cannot be set when spec.os.name is windows.",
      ),
      supplementalGroupsPolicy: str(
        'Defines how supplemental groups of the first container processes are calculated. Valid values are "Merge" and "Strict". Note that this field cannot be set when spec.os.name is windows.',
      ),
      fsGroup: int64(
        "A special supplemental group that applies to all containers in a pod. Note that this field cannot be set when spec.os.name is windows.",
      ),
      sysctls: atomicList(
        core("Sysctl"),
        "Sysctls hold a list of namespaced sysctls used for the pod. Pods with unsupported sysctls (by the container runtime) might fail to launch. Note that this field cannot be set when spec.os.name is windows.",
      ),
      fsGroupChangePolicy: str(
        'fsGroupChangePolicy defines behavior of changing ownership and permission of the volume before being exposed inside Pod. Valid values are "OnRootMismatch" and "Always". Note that this field cannot be set when spec.os.name is windows.',
      ),
      seccompProfile: core(
        "SeccompProfile",
        "The seccomp options to use by the containers in this pod. Note that this field cannot be set when spec.os.name is windows.",
      ),
      appArmorProfile: core(
        "AppArmorProfile",
        "appArmorProfile is the AppArmor options to use by the containers in this pod. Note that this field cannot be set when spec.os.name is windows.",
      ),
      seLinuxChangePolicy: str(
        'seLinuxChangePolicy defines how the container\'s SELinux label is applied to all volumes used by the Pod. Valid values are "MountOption" and "Recursive". Note that this field cannot be set when spec.os.name is windows.',
      ),
    },
    {
      description:
        "PodSecurityContext holds pod-level security attributes and common container settings. Some fields are also present in container.securityContext.  Field values of container.securityContext take precedence over field values of PodSecurityContext.",
    },
  ),
  [coreName("Capabilities")]: obj(
    {
      add: atomicList(str(), "Added capabilities"),
      drop: atomicList(str(), "Removed capabilities"),
    },
    { description: "Adds and removes POSIX capabilities from running containers." },
  ),
  [coreName("SELinuxOptions")]: obj(
    {
      user: str("User is a SELinux user label that applies to the container."),
      role: str("Role is a SELinux role label that applies to the container."),
      type: str("Type is a SELinux type label that applies to the container."),
      level: str("Level is SELinux level label that applies to the container."),
    },
    { description: "SELinuxOptions are the labels to be applied to the container" },
  ),
  [coreName("WindowsSecurityContextOptions")]: obj(
    {
      gmsaCredentialSpecName: str(
        "GMSACredentialSpecName is the name of the GMSA credential spec to use.",
      ),
      gmsaCredentialSpec: str(
        "GMSACredentialSpec is where the GMSA admission webhook inlines the contents of the GMSA credential spec named by the GMSACredentialSpecName field.",
      ),
      runAsUserName: str(
        "The UserName in Windows to run the entrypoint of the container process. Defaults to the user specified in image metadata if unspecified.",
      ),
      hostProcess: bool(
        "HostProcess determines if a container should be run as a 'Host Process' container.",
      ),
    },
    {
      description:
        "WindowsSecurityContextOptions contain Windows-specific options and credentials.",
    },
  ),
  [coreName("SeccompProfile")]: obj(
    {
      type: str(
        "type indicates which kind of seccomp profile will be applied. Valid options are: Localhost, RuntimeDefault, Unconfined.",
      ),
      localhostProfile: str(
        'localhostProfile indicates a profile defined in a file on the node should be used. Must be set if type is "Localhost". Must NOT be set for any other type.',
      ),
    },
    {
      description:
        "SeccompProfile defines a pod/container's seccomp profile settings. Only one profile source may be set.",
      required: ["type"],
    },
  ),
  [coreName("AppArmorProfile")]: obj(
    {
      type: str(
        "type indicates which kind of AppArmor profile will be applied. Valid options are: Localhost, RuntimeDefault, Unconfined.",
      ),
      localhostProfile: str(
        'localhostProfile indicates a profile loaded on the node that should be used. Must be set if and only if type is "Localhost".',
      ),
    },
    {
      description: "AppArmorProfile defines a pod or container's AppArmor settings.",
      required: ["type"],
    },
  ),
  [coreName("Sysctl")]: obj(
    {
      name: str("Name of a property to set"),
      value: str("Value of a property to set"),
    },
    { description: "Sysctl defines a kernel parameter to be set", required: ["name", "value"] },
  ),
  [coreName("LocalObjectReference")]: {
    ...obj(
      { name: str("Name of the referent.") },
      {
        description:
          "LocalObjectReference contains enough information to let you locate the referenced object inside the same namespace.",
      },
    ),
    "x-kubernetes-map-type": "atomic",
  },
  [coreName("Volume")]: volumeSchema(),
  [coreName("EmptyDirVolumeSource")]: obj(
    {
      medium: str('What type of storage medium should back this directory: "" or Memory.'),
      sizeLimit: quantityRef("Total amount of local storage required for this EmptyDir volume."),
    },
    { description: "Represents an empty directory for a pod." },
  ),
  [coreName("ConfigMapVolumeSource")]: obj(
    {
      name: str("Name of the referent."),
      items: atomicList(core("KeyToPath"), "Projects keys of the ConfigMap into paths."),
      defaultMode: int32(
        "Mode bits used to set permissions on created files by default. Defaults to 0644.",
      ),
      optional: bool("Whether the ConfigMap or its keys must be defined."),
    },
    { description: "Adapts a ConfigMap into a volume." },
  ),
  [coreName("SecretVolumeSource")]: obj(
    {
      secretName: str("Name of the secret in the pod's namespace to use."),
      items: atomicList(core("KeyToPath"), "Projects keys of the Secret into paths."),
      defaultMode: int32(
        "Mode bits used to set permissions on created files by default. Defaults to 0644.",
      ),
      optional: bool("Whether the Secret or its keys must be defined."),
    },
    { description: "Adapts a Secret into a volume." },
  ),
  [coreName("KeyToPath")]: obj(
    {
      key: str("The key to project."),
      path: str("The relative path of the file to map the key to."),
      mode: int32("Mode bits used to set permissions on this file."),
    },
    { description: "Maps a string key to a path within a volume.", required: ["key", "path"] },
  ),
  [coreName("HostPathVolumeSource")]: obj(
    {
      path: str("Path of the directory on the host."),
      type: str('Type for HostPath Volume. Defaults to "".'),
    },
    { description: "Represents a host path mapped into a pod.", required: ["path"] },
  ),
  [coreName("PersistentVolumeClaimVolumeSource")]: obj(
    {
      claimName: str("The name of a PersistentVolumeClaim in the same namespace as the pod."),
      readOnly: bool("Will force the ReadOnly setting in VolumeMounts."),
    },
    { description: "References the user's PVC in the same namespace.", required: ["claimName"] },
  ),
  [coreName("DownwardAPIVolumeSource")]: obj(
    {
      items: atomicList(core("DownwardAPIVolumeFile"), "A list of downward API volume files."),
      defaultMode: int32(
        "Mode bits used to set permissions on created files by default. Defaults to 0644.",
      ),
    },
    { description: "DownwardAPIVolumeSource represents a volume containing downward API info." },
  ),
  [coreName("DownwardAPIVolumeFile")]: obj(
    {
      path: str("The relative path name of the file to be created."),
      fieldRef: core("ObjectFieldSelector", "Selects a field of the pod."),
      resourceFieldRef: core("ResourceFieldSelector", "Selects a resource of the container."),
      mode: int32("Mode bits used to set permissions on this file."),
    },
    {
      description:
        "DownwardAPIVolumeFile represents information to create the file containing the pod field.",
      required: ["path"],
    },
  ),
  [coreName("ProjectedVolumeSource")]: obj(
    {
      sources: atomicList(
        anyValue(
          "A projection: secret, configMap, downwardAPI, serviceAccountToken, clusterTrustBundle or podCertificate.",
        ),
        "List of volume projections.",
      ),
      defaultMode: int32(
        "Mode bits used to set permissions on created files by default. Defaults to 0644.",
      ),
    },
    { description: "Represents a projected volume source." },
  ),
  [coreName("Affinity")]: obj(
    {
      nodeAffinity: core("NodeAffinity", "Describes node affinity scheduling rules for the pod."),
      podAffinity: core("PodAffinity", "Describes pod affinity scheduling rules."),
      podAntiAffinity: core("PodAntiAffinity", "Describes pod anti-affinity scheduling rules."),
    },
    { description: "Affinity is a group of affinity scheduling rules." },
  ),
  [coreName("NodeAffinity")]: obj(
    {
      requiredDuringSchedulingIgnoredDuringExecution: core(
        "NodeSelector",
        "Node requirements the pod must satisfy to be scheduled.",
      ),
      preferredDuringSchedulingIgnoredDuringExecution: atomicList(
        core("PreferredSchedulingTerm"),
        "Weighted node preferences.",
      ),
    },
    { description: "Node affinity is a group of node affinity scheduling rules." },
  ),
  [coreName("NodeSelector")]: {
    ...obj(
      {
        nodeSelectorTerms: atomicList(
          core("NodeSelectorTerm"),
          "Required. A list of node selector terms. The terms are ORed.",
        ),
      },
      {
        description:
          "A node selector represents the union of the results of one or more label queries over a set of nodes.",
        required: ["nodeSelectorTerms"],
      },
    ),
    "x-kubernetes-map-type": "atomic",
  },
  [coreName("NodeSelectorTerm")]: {
    ...obj(
      {
        matchExpressions: atomicList(
          core("NodeSelectorRequirement"),
          "A list of node selector requirements by node's labels.",
        ),
        matchFields: atomicList(
          core("NodeSelectorRequirement"),
          "A list of node selector requirements by node's fields.",
        ),
      },
      {
        description:
          "A null or empty node selector term matches no objects. The requirements are ANDed.",
      },
    ),
    "x-kubernetes-map-type": "atomic",
  },
  [coreName("NodeSelectorRequirement")]: obj(
    {
      key: str("The label key that the selector applies to."),
      operator: str(
        "A key's relationship to a set of values: In, NotIn, Exists, DoesNotExist, Gt, and Lt.",
      ),
      values: strings("An array of string values."),
    },
    {
      description: "A node selector requirement: a key, an operator and values.",
      required: ["key", "operator"],
    },
  ),
  [coreName("PreferredSchedulingTerm")]: obj(
    {
      weight: int32(
        "Weight associated with matching the corresponding nodeSelectorTerm, in the range 1-100.",
      ),
      preference: core(
        "NodeSelectorTerm",
        "A node selector term, associated with the corresponding weight.",
      ),
    },
    {
      description: "An empty preferred scheduling term matches all objects with implicit weight 0.",
      required: ["weight", "preference"],
    },
  ),
  [coreName("PodAffinity")]: podAffinitySchema(
    "Pod affinity is a group of inter pod affinity scheduling rules.",
  ),
  [coreName("PodAntiAffinity")]: podAffinitySchema(
    "Pod anti affinity is a group of inter pod anti affinity scheduling rules.",
  ),
  [coreName("PodAffinityTerm")]: obj(
    {
      labelSelector: ref(
        m.labelSelector,
        "A label query over a set of resources, in this case pods.",
      ),
      namespaces: strings("A static list of namespace names that the term applies to."),
      topologyKey: str("The key of node labels whose value defines co-location."),
      namespaceSelector: ref(
        m.labelSelector,
        "A label query over the set of namespaces that the term applies to.",
      ),
      matchLabelKeys: strings(
        "Pod label keys whose values are merged into labelSelector as In requirements.",
      ),
      mismatchLabelKeys: strings(
        "Pod label keys whose values are merged into labelSelector as NotIn requirements.",
      ),
    },
    {
      description:
        "Defines a set of pods that this pod should be co-located (affinity) or not co-located (anti-affinity) with.",
      required: ["topologyKey"],
    },
  ),
  [coreName("WeightedPodAffinityTerm")]: obj(
    {
      weight: int32("Weight, in the range 1-100."),
      podAffinityTerm: core(
        "PodAffinityTerm",
        "A pod affinity term, associated with the corresponding weight.",
      ),
    },
    {
      description:
        "The weights of all of the matched WeightedPodAffinityTerm fields are added per-node to find the most preferred node(s).",
      required: ["weight", "podAffinityTerm"],
    },
  ),
  [coreName("Toleration")]: obj(
    {
      key: str("The taint key that the toleration applies to; empty means match all taint keys."),
      operator: str("A key's relationship to the value: Exists or Equal. Defaults to Equal."),
      value: str("The taint value the toleration matches to."),
      effect: str("The taint effect to match; empty means match all taint effects."),
      tolerationSeconds: int64("How long the pod stays bound after a NoExecute taint is added."),
    },
    {
      description:
        "The pod this Toleration is attached to tolerates any taint that matches the triple <key,value,effect>.",
    },
  ),
  [coreName("TopologySpreadConstraint")]: obj(
    {
      maxSkew: int32("The degree to which pods may be unevenly distributed."),
      topologyKey: str(
        "The key of node labels; nodes with the same value are in the same topology.",
      ),
      whenUnsatisfiable: str(
        "How to deal with a pod that doesn't satisfy the spread constraint: DoNotSchedule or ScheduleAnyway.",
      ),
      labelSelector: ref(m.labelSelector, "Used to find matching pods."),
      minDomains: int32("A minimum number of eligible domains."),
      nodeAffinityPolicy: str(
        "How to treat the pod's nodeAffinity/nodeSelector when calculating skew: Honor or Ignore.",
      ),
      nodeTaintsPolicy: str("How to treat node taints when calculating skew: Honor or Ignore."),
      matchLabelKeys: strings(
        "Pod label keys to select the pods over which spreading will be calculated.",
      ),
    },
    {
      description:
        "TopologySpreadConstraint specifies how to spread matching pods among the given topology.",
      required: ["maxSkew", "topologyKey", "whenUnsatisfiable"],
    },
  ),
  [coreName("PodSchedulingGate")]: obj(
    { name: str("Name of the scheduling gate; must be unique among gates.") },
    {
      description: "PodSchedulingGate is associated to a Pod to guard its scheduling.",
      required: ["name"],
    },
  ),
  [coreName("PodReadinessGate")]: obj(
    { conditionType: str("A condition in the pod's condition list with a matching type.") },
    {
      description: "PodReadinessGate contains the reference to a pod condition.",
      required: ["conditionType"],
    },
  ),
  [coreName("HostAlias")]: obj(
    {
      ip: str("IP address of the host file entry."),
      hostnames: strings("Hostnames for the above IP address."),
    },
    { description: "HostAlias holds the mapping between IP and hostnames.", required: ["ip"] },
  ),
  [coreName("PodDNSConfig")]: obj(
    {
      nameservers: strings("A list of DNS name server IP addresses."),
      searches: strings("A list of DNS search domains for host-name lookup."),
      options: atomicList(anyValue("A DNS resolver option."), "A list of DNS resolver options."),
    },
    {
      description:
        "PodDNSConfig defines the DNS parameters of a pod in addition to those generated from DNSPolicy.",
    },
  ),
  [coreName("PodOS")]: obj(
    { name: str("The name of the operating system: linux or windows.") },
    { description: "PodOS defines the OS parameters of a pod.", required: ["name"] },
  ),
  [coreName("PodResourceClaim")]: obj(
    {
      name: str("Uniquely identifies this resource claim inside the pod."),
      resourceClaimName: str("The name of a ResourceClaim object."),
      resourceClaimTemplateName: str("The name of a ResourceClaimTemplate object."),
    },
    { description: "PodResourceClaim references exactly one ResourceClaim.", required: ["name"] },
  ),
};

function containerSchema(description: string): Schema {
  return obj(
    {
      name: str("Name of the container specified as a DNS_LABEL; unique within the pod."),
      image: str("Container image name."),
      command: strings("Entrypoint array. Not executed within a shell."),
      args: strings("Arguments to the entrypoint."),
      workingDir: str("Container's working directory."),
      ports: mapList(core("ContainerPort"), "containerPort", {
        mapKeys: ["containerPort", "protocol"],
        description: "List of ports to expose from the container.",
      }),
      envFrom: atomicList(
        core("EnvFromSource"),
        "List of sources to populate environment variables in the container.",
      ),
      env: mapList(core("EnvVar"), "name", {
        description: "List of environment variables to set in the container.",
      }),
      resources: core("ResourceRequirements", "Compute resources required by this container."),
      resizePolicy: atomicList(
        core("ContainerResizePolicy"),
        "Resources resize policy for the container.",
      ),
      restartPolicy: str(
        "Restart behavior of an individual container; only Always, for init containers (sidecars).",
      ),
      restartPolicyRules: atomicList(
        anyValue("A container restart rule."),
        "Rules for restarting a container on exit.",
      ),
      volumeMounts: mapList(core("VolumeMount"), "mountPath", {
        description: "Pod volumes to mount into the container's filesystem.",
      }),
      volumeDevices: mapList(core("VolumeDevice"), "devicePath", {
        description: "volumeDevices is the list of block devices to be used by the container.",
      }),
      livenessProbe: core("Probe", "Periodic probe of container liveness."),
      readinessProbe: core("Probe", "Periodic probe of container service readiness."),
      startupProbe: core(
        "Probe",
        "StartupProbe indicates that the Pod has successfully initialized.",
      ),
      lifecycle: core(
        "Lifecycle",
        "Actions that the management system should take in response to container lifecycle events.",
      ),
      terminationMessagePath: str(
        "Path at which the file to which the container's termination message will be written is mounted. Defaults to /dev/termination-log.",
      ),
      terminationMessagePolicy: str(
        "How the termination message should be populated: File or FallbackToLogsOnError. Defaults to File.",
      ),
      imagePullPolicy: str(
        "Image pull policy: Always, Never, IfNotPresent. Defaults to Always if :latest tag is specified, or IfNotPresent otherwise.",
      ),
      securityContext: core(
        "SecurityContext",
        "Security options the container should be run with.",
      ),
      stdin: bool(
        "Whether this container should allocate a buffer for stdin in the container runtime.",
      ),
      stdinOnce: bool(
        "Whether the container runtime should close the stdin channel after it has been opened by a single attach.",
      ),
      tty: bool("Whether this container should allocate a TTY for itself."),
    },
    { description, required: ["name"] },
  );
}

function volumeSchema(): Schema {
  const known: Record<string, Schema> = {
    name: str("Name of the volume; a DNS_LABEL, unique within the pod."),
    emptyDir: core("EmptyDirVolumeSource", "A temporary directory that shares a pod's lifetime."),
    configMap: core("ConfigMapVolumeSource", "A configMap that should populate this volume."),
    secret: core("SecretVolumeSource", "A secret that should populate this volume."),
    hostPath: core("HostPathVolumeSource", "A pre-existing file or directory on the host machine."),
    persistentVolumeClaim: core(
      "PersistentVolumeClaimVolumeSource",
      "A reference to a PersistentVolumeClaim in the same namespace.",
    ),
    projected: core(
      "ProjectedVolumeSource",
      "Projected items for all in one resources secrets, configmaps, and downward API.",
    ),
    downwardAPI: core(
      "DownwardAPIVolumeSource",
      "Downward API about the pod that should populate this volume.",
    ),
  };
  const others = [
    "gitRepo",
    "gcePersistentDisk",
    "awsElasticBlockStore",
    "nfs",
    "iscsi",
    "glusterfs",
    "flexVolume",
    "flocker",
    "rbd",
    "cinder",
    "cephfs",
    "quobyte",
    "fc",
    "azureFile",
    "vsphereVolume",
    "photonPersistentDisk",
    "portworxVolume",
    "azureDisk",
    "csi",
    "scaleIO",
    "storageos",
    "ephemeral",
    "image",
  ];
  for (const name of others)
    known[name] = {
      type: "object",
      "x-kubernetes-preserve-unknown-fields": true,
      description: `A ${name} volume source, kept as sent.`,
    };
  return obj(known, {
    description:
      "Volume represents a named volume in a pod that may be accessed by any container in the pod.",
    required: ["name"],
  });
}

function podAffinitySchema(description: string): Schema {
  return obj(
    {
      requiredDuringSchedulingIgnoredDuringExecution: atomicList(
        core("PodAffinityTerm"),
        "Pod affinity terms that must be met at scheduling time.",
      ),
      preferredDuringSchedulingIgnoredDuringExecution: atomicList(
        core("WeightedPodAffinityTerm"),
        "Weighted pod affinity preferences.",
      ),
    },
    { description },
  );
}

function optionalRef(description: string): Schema {
  return obj(
    { name: str("Name of the referent."), optional: bool("Specify whether it must be defined.") },
    { description },
  );
}

function keySelector(description: string): Schema {
  return {
    ...obj(
      {
        name: str("Name of the referent."),
        key: str("The key to select."),
        optional: bool("Specify whether it or its key must be defined."),
      },
      { description, required: ["key"] },
    ),
    "x-kubernetes-map-type": "atomic",
  };
}
