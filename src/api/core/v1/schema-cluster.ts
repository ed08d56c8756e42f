/** Named schemas of Node, Namespace, ConfigMap, Secret, Service and ServiceAccount. */
import {
  atomicList,
  bool,
  int32,
  mapList,
  mapOf,
  obj,
  setList,
  str,
  stringMap,
} from "../../schema/builders.ts";
import type { Definitions, Schema } from "../../schema/schema.ts";
import { kindSchema, listSchema } from "./schema-kind.ts";
import {
  atomicMap,
  core,
  coreName,
  intOrStringRef,
  resourceList,
  timeRef,
} from "./schema-pod-template.ts";

const condition = (description: string, heartbeat: boolean): Schema =>
  obj(
    {
      type: str("Type of condition."),
      status: str("Status of the condition, one of True, False, Unknown."),
      ...(heartbeat
        ? { lastHeartbeatTime: timeRef("Last time we got an update on a given condition.") }
        : {}),
      lastTransitionTime: timeRef(
        "Last time the condition transitioned from one status to another.",
      ),
      reason: str("(brief) reason for the condition's last transition."),
      message: str("Human readable message indicating details about last transition."),
    },
    { description, required: ["type", "status"] },
  );

const opaque = (description: string): Schema => ({
  type: "object",
  "x-kubernetes-preserve-unknown-fields": true,
  description,
});

export const clusterDefinitions: Definitions = {
  [coreName("Node")]: kindSchema("Node", "Node is a worker node in Kubernetes.", {
    spec: core("NodeSpec", "Spec defines the behavior of a node."),
    status: core("NodeStatus", "Most recently observed status of the node."),
  }),
  [coreName("NodeList")]: listSchema("Node", core("Node")),
  [coreName("NodeSpec")]: obj(
    {
      podCIDR: str("PodCIDR represents the pod IP range assigned to the node."),
      podCIDRs: setList(
        str(),
        "podCIDRs represents the IP ranges assigned to the node for usage by Pods on that node.",
      ),
      providerID: str(
        "ID of the node assigned by the cloud provider in the format: <ProviderName>://<ProviderSpecificNodeID>.",
      ),
      unschedulable: bool(
        "Unschedulable controls node schedulability of new pods. By default, node is schedulable.",
      ),
      taints: atomicList(core("Taint"), "If specified, the node's taints."),
      configSource: opaque(
        "Deprecated: previously used to specify the source of the node's configuration.",
      ),
      externalID: str("Deprecated. Not all kubelets will set this field."),
    },
    { description: "NodeSpec describes the attributes that a node is created with." },
  ),
  [coreName("Taint")]: obj(
    {
      key: str("Required. The taint key to be applied to a node."),
      value: str("The taint value corresponding to the taint key."),
      effect: str(
        "Required. The effect of the taint on pods that do not tolerate the taint: NoSchedule, PreferNoSchedule and NoExecute.",
      ),
      timeAdded: timeRef("TimeAdded represents the time at which the taint was added."),
    },
    {
      description:
        'The node this Taint is attached to has the "effect" on any pod that does not tolerate the Taint.',
      required: ["key", "effect"],
    },
  ),
  [coreName("NodeStatus")]: obj(
    {
      capacity: resourceList("Capacity represents the total resources of a node."),
      allocatable: resourceList(
        "Allocatable represents the resources of a node that are available for scheduling. Defaults to Capacity.",
      ),
      phase: str("NodePhase is the recently observed lifecycle phase of the node. Deprecated."),
      conditions: mapList(core("NodeCondition"), "type", {
        description: "Conditions is an array of current observed node conditions.",
      }),
      addresses: mapList(core("NodeAddress"), "type", {
        description: "List of addresses reachable to the node.",
      }),
      daemonEndpoints: core("NodeDaemonEndpoints", "Endpoints of daemons running on the Node."),
      nodeInfo: core("NodeSystemInfo", "Set of ids/uuids to uniquely identify the node."),
      images: atomicList(
        opaque("A container image on the node."),
        "List of container images on this node.",
      ),
      volumesInUse: atomicList(str(), "List of attachable volumes in use (mounted) by the node."),
      volumesAttached: atomicList(
        opaque("An attached volume."),
        "List of volumes that are attached to the node.",
      ),
      config: opaque(
        "Status of the config assigned to the node via the dynamic Kubelet config feature.",
      ),
      runtimeHandlers: atomicList(opaque("A runtime handler."), "The available runtime handlers."),
      features: opaque(
        "Features describes the set of features implemented by the CRI implementation.",
      ),
      declaredFeatures: atomicList(str(), "Features declared by the node."),
    },
    { description: "NodeStatus is information about the current status of a node." },
  ),
  [coreName("NodeCondition")]: condition(
    "NodeCondition contains condition information for a node.",
    true,
  ),
  [coreName("NodeAddress")]: obj(
    {
      type: str("Node address type, one of Hostname, ExternalIP or InternalIP."),
      address: str("The node address."),
    },
    {
      description: "NodeAddress contains information for the node's address.",
      required: ["type", "address"],
    },
  ),
  [coreName("NodeDaemonEndpoints")]: obj(
    { kubeletEndpoint: core("DaemonEndpoint", "Endpoint on which Kubelet is listening.") },
    { description: "NodeDaemonEndpoints lists ports opened by daemons running on the Node." },
  ),
  [coreName("DaemonEndpoint")]: obj(
    { Port: int32("Port number of the given endpoint.") },
    {
      description: "DaemonEndpoint contains information about a single Daemon endpoint.",
      required: ["Port"],
    },
  ),
  [coreName("NodeSystemInfo")]: obj(
    {
      machineID: str("MachineID reported by the node."),
      systemUUID: str("SystemUUID reported by the node."),
      bootID: str("Boot ID reported by the node."),
      kernelVersion: str("Kernel Version reported by the node from 'uname -r'."),
      osImage: str("OS Image reported by the node from /etc/os-release."),
      containerRuntimeVersion: str(
        "ContainerRuntime Version reported by the node through runtime remote API.",
      ),
      kubeletVersion: str("Kubelet Version reported by the node."),
      kubeProxyVersion: str("Deprecated: KubeProxy Version reported by the node."),
      operatingSystem: str("The Operating System reported by the node."),
      architecture: str("The Architecture reported by the node."),
      swap: opaque("Swap Info reported by the node."),
    },
    { description: "NodeSystemInfo is a set of ids/uuids to uniquely identify the node." },
  ),
  [coreName("Namespace")]: kindSchema(
    "Namespace",
    "Namespace provides a scope for Names. Use of multiple namespaces is optional.",
    {
      spec: core("NamespaceSpec", "Spec defines the behavior of the Namespace."),
      status: core("NamespaceStatus", "Status describes the current status of a Namespace."),
    },
  ),
  [coreName("NamespaceList")]: listSchema("Namespace", core("Namespace")),
  [coreName("NamespaceSpec")]: obj(
    {
      finalizers: atomicList(
        str(),
        "Finalizers is an opaque list of values that must be empty to permanently remove object from storage.",
      ),
    },
    { description: "NamespaceSpec describes the attributes on a Namespace." },
  ),
  [coreName("NamespaceStatus")]: obj(
    {
      phase: str("Phase is the current lifecycle phase of the namespace: Active or Terminating."),
      conditions: mapList(core("NamespaceCondition"), "type", {
        description: "Represents the latest available observations of a namespace's current state.",
      }),
    },
    { description: "NamespaceStatus is information about the current status of a Namespace." },
  ),
  [coreName("NamespaceCondition")]: condition(
    "NamespaceCondition contains details about state of namespace.",
    false,
  ),
  [coreName("ConfigMap")]: kindSchema(
    "ConfigMap",
    "ConfigMap holds configuration data for pods to consume.",
    {
      immutable: bool(
        "If set to true, ensures that data stored in the ConfigMap cannot be updated.",
      ),
      data: stringMap(
        "Data contains the configuration data; keys must consist of alphanumeric characters, '-', '_' or '.'.",
      ),
      binaryData: mapOf(
        { type: "string", format: "byte" },
        "BinaryData contains the binary data, base64-encoded.",
      ),
    },
  ),
  [coreName("ConfigMapList")]: listSchema("ConfigMap", core("ConfigMap")),
  [coreName("Secret")]: kindSchema(
    "Secret",
    "Secret holds secret data of a certain type. The total bytes of the values in the Data field must be less than 1 MiB.",
    {
      immutable: bool("If set to true, ensures that data stored in the Secret cannot be updated."),
      data: mapOf(
        { type: "string", format: "byte" },
        "Data contains the secret data, base64-encoded.",
      ),
      stringData: stringMap(
        "Write-only convenience field for non-binary secret data; merged into data on write.",
      ),
      type: str("Used to facilitate programmatic handling of secret data. Defaults to Opaque."),
    },
  ),
  [coreName("SecretList")]: listSchema("Secret", core("Secret")),
  [coreName("Service")]: kindSchema(
    "Service",
    "Service is a named abstraction of software service (for example, mysql) consisting of local port that the proxy listens on, and the selector that determines which pods will answer requests sent through the proxy.",
    {
      spec: core("ServiceSpec", "Spec defines the behavior of a service."),
      status: core("ServiceStatus", "Most recently observed status of the service."),
    },
  ),
  [coreName("ServiceList")]: listSchema("Service", core("Service")),
  [coreName("ServiceSpec")]: obj(
    {
      ports: mapList(core("ServicePort"), "port", {
        mapKeys: ["port", "protocol"],
        description: "The list of ports that are exposed by this service.",
      }),
      selector: atomicMap(
        "Route service traffic to pods with label keys and values matching this selector.",
      ),
      clusterIP: str(
        "The IP address of the service, usually assigned randomly; None makes a headless service.",
      ),
      clusterIPs: atomicList(str(), "A list of IP addresses assigned to this service."),
      type: str(
        "How the Service is exposed: ExternalName, ClusterIP, NodePort, and LoadBalancer. Defaults to ClusterIP.",
      ),
      externalIPs: atomicList(
        str(),
        "A list of IP addresses for which nodes in the cluster will also accept traffic for this service.",
      ),
      sessionAffinity: str("Supports ClientIP and None. Defaults to None."),
      loadBalancerIP: str("Deprecated: only applies to Service Type LoadBalancer."),
      loadBalancerSourceRanges: atomicList(
        str(),
        "Restricts traffic through the cloud-provider load-balancer to the specified client IPs.",
      ),
      externalName: str(
        "The external reference that discovery mechanisms will return as an alias for this service.",
      ),
      externalTrafficPolicy: str(
        "How nodes distribute service traffic they receive on externally-facing addresses: Cluster or Local.",
      ),
      healthCheckNodePort: int32("The healthcheck nodePort for the service."),
      publishNotReadyAddresses: bool("Whether endpoints should disregard readiness."),
      sessionAffinityConfig: opaque("The configurations of session affinity."),
      ipFamilies: atomicList(
        str(),
        "A list of IP families (e.g. IPv4, IPv6) assigned to this service.",
      ),
      ipFamilyPolicy: str("The dual-stack-ness requested or required by this Service."),
      allocateLoadBalancerNodePorts: bool(
        "Whether NodePorts will be automatically allocated for services with type LoadBalancer.",
      ),
      loadBalancerClass: str(
        "The class of the load balancer implementation this Service belongs to.",
      ),
      internalTrafficPolicy: str(
        "How nodes distribute service traffic they receive on the ClusterIP: Cluster or Local.",
      ),
      trafficDistribution: str(
        "A way to express preferences for how traffic is distributed to Service endpoints.",
      ),
    },
    { description: "ServiceSpec describes the attributes that a user creates on a service." },
  ),
  [coreName("ServicePort")]: obj(
    {
      name: str("The name of this port within the service; must be a DNS_LABEL."),
      protocol: str('The IP protocol for this port: "TCP", "UDP", and "SCTP". Default is TCP.'),
      appProtocol: str("The application protocol for this port."),
      port: int32("The port that will be exposed by this service."),
      targetPort: intOrStringRef(
        "Number or name of the port to access on the pods targeted by the service; defaults to port.",
      ),
      nodePort: int32(
        "The port on each node on which this service is exposed when type is NodePort or LoadBalancer.",
      ),
    },
    { description: "ServicePort contains information on service's port.", required: ["port"] },
  ),
  [coreName("ServiceStatus")]: obj(
    {
      loadBalancer: opaque(
        "LoadBalancer contains the current status of the load-balancer, if one is present.",
      ),
      conditions: mapList(
        { type: "object", "x-kubernetes-preserve-unknown-fields": true },
        "type",
        { description: "Current service state." },
      ),
    },
    { description: "ServiceStatus represents the current status of a service." },
  ),
  [coreName("ServiceAccount")]: kindSchema(
    "ServiceAccount",
    "ServiceAccount binds together a name, a principal that can be authenticated and authorized, and a set of secrets.",
    {
      secrets: mapList(core("ObjectReference"), "name", {
        description:
          "Deprecated: Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.",
      }),
      imagePullSecrets: atomicList(
        core("LocalObjectReference"),
        "List of references to secrets in the same namespace to use for pulling any images in pods that reference this ServiceAccount.",
      ),
      automountServiceAccountToken: bool(
        "Whether pods running as this service account should have an API token automatically mounted.",
      ),
    },
  ),
  [coreName("ServiceAccountList")]: listSchema("ServiceAccount", core("ServiceAccount")),
};
