/** Named schemas of Pod (and its status), ReplicationController, Binding and Event. */
import { metaDefinitionNames as m } from "../../meta/schema.ts";
import { atomicList, bool, int32, int64, mapList, obj, str } from "../../schema/builders.ts";
import { type Definitions, ref } from "../../schema/schema.ts";
import { kindSchema, listSchema } from "./schema-kind.ts";
import { atomicMap, core, coreName, resourceList, timeRef } from "./schema-pod-template.ts";

export const workloadDefinitions: Definitions = {
  [coreName("Pod")]: kindSchema(
    "Pod",
    "Pod is a collection of containers that can run on a host, created by clients and scheduled onto hosts.",
    {
      spec: core("PodSpec", "Specification of the desired behavior of the pod."),
      status: core("PodStatus", "Most recently observed status of the pod."),
    },
  ),
  [coreName("PodList")]: listSchema("Pod", core("Pod")),
  [coreName("PodStatus")]: obj(
    {
      observedGeneration: int64("The .metadata.generation that the pod status was set based upon."),
      phase: str(
        "A simple, high-level summary of where the Pod is in its lifecycle: Pending, Running, Succeeded, Failed or Unknown.",
      ),
      conditions: mapList(core("PodCondition"), "type", {
        description: "Current service state of pod.",
      }),
      message: str(
        "A human readable message indicating details about why the pod is in this condition.",
      ),
      reason: str(
        "A brief CamelCase message indicating details about why the pod is in this state.",
      ),
      nominatedNodeName: str(
        "Set only when this pod preempts other pods on the node; the node it may be scheduled to.",
      ),
      hostIP: str("The IP address of the host to which the pod is assigned."),
      hostIPs: mapList(core("HostIP"), "ip", {
        description: "The IP addresses allocated to the host.",
      }),
      podIP: str("The IP address allocated to the pod."),
      podIPs: mapList(core("PodIP"), "ip", {
        description: "The IP addresses allocated to the pod.",
      }),
      startTime: timeRef(
        "RFC 3339 date and time at which the object was acknowledged by the Kubelet.",
      ),
      initContainerStatuses: atomicList(core("ContainerStatus"), "The status of init containers."),
      containerStatuses: atomicList(
        core("ContainerStatus"),
        "The status of each container in the manifest.",
      ),
      qosClass: str(
        "The Quality of Service (QOS) classification assigned to the pod based on resource requirements.",
      ),
      ephemeralContainerStatuses: atomicList(
        core("ContainerStatus"),
        "Status for any ephemeral containers.",
      ),
      resize: str("Deprecated: the status of a pod resize."),
      resourceClaimStatuses: mapList(core("PodResourceClaimStatus"), "name", {
        patchStrategy: "merge,retainKeys",
        description: "Status of resource claims.",
      }),
      allocatedResources: resourceList("The total requests allocated for this pod by the node."),
      resources: core("ResourceRequirements", "The effective resource requirements for this pod."),
    },
    { description: "PodStatus represents information about the status of a pod." },
  ),
  [coreName("PodCondition")]: obj(
    {
      type: str("Type is the type of the condition."),
      observedGeneration: int64("The .metadata.generation that the condition was set based upon."),
      status: str("Status is the status of the condition: True, False, Unknown."),
      lastProbeTime: timeRef("Last time we probed the condition."),
      lastTransitionTime: timeRef(
        "Last time the condition transitioned from one status to another.",
      ),
      reason: str("Unique, one-word, CamelCase reason for the condition's last transition."),
      message: str("Human-readable message indicating details about last transition."),
    },
    {
      description: "PodCondition contains details for the current condition of this pod.",
      required: ["type", "status"],
    },
  ),
  [coreName("PodIP")]: obj(
    { ip: str("IP is the IP address assigned to the pod.") },
    { description: "PodIP represents a single IP address allocated to the pod.", required: ["ip"] },
  ),
  [coreName("HostIP")]: obj(
    { ip: str("IP is the IP address assigned to the host.") },
    {
      description: "HostIP represents a single IP address allocated to the host.",
      required: ["ip"],
    },
  ),
  [coreName("PodResourceClaimStatus")]: obj(
    {
      name: str("Uniquely identifies this resource claim inside the pod."),
      resourceClaimName: str("The name of the ResourceClaim generated for the pod."),
    },
    {
      description:
        "PodResourceClaimStatus is stored in the PodStatus for each PodResourceClaim which references a ResourceClaimTemplate.",
      required: ["name"],
    },
  ),
  [coreName("ContainerStatus")]: obj(
    {
      name: str("The name of the container."),
      state: core("ContainerState", "Details about the container's current condition."),
      lastState: core(
        "ContainerState",
        "Details about the container's last termination condition.",
      ),
      ready: bool("Whether the container is currently passing its readiness check."),
      restartCount: int32("The number of times the container has been restarted."),
      image: str("The name of the container image that the container is running."),
      imageID: str("The image ID of the container's image."),
      containerID: str("The ID of the container in the format '<type>://<container_id>'."),
      started: bool(
        "Whether the container has finished its postStart lifecycle hook and passed its startup probe.",
      ),
      allocatedResources: resourceList(
        "The compute resources allocated for this container by the node.",
      ),
      resources: core(
        "ResourceRequirements",
        "The compute resource requests and limits applied to the running container.",
      ),
      volumeMounts: mapList(
        { type: "object", "x-kubernetes-preserve-unknown-fields": true },
        "mountPath",
        { description: "Status of volume mounts." },
      ),
      user: {
        type: "object",
        "x-kubernetes-preserve-unknown-fields": true,
        description: "Identity information of the first process of the container.",
      },
      allocatedResourcesStatus: mapList(
        { type: "object", "x-kubernetes-preserve-unknown-fields": true },
        "name",
        { description: "Status of resources allocated for this container." },
      ),
      stopSignal: str("The stop signal for this container."),
    },
    {
      description: "ContainerStatus contains details for the current status of this container.",
      required: ["name", "ready", "restartCount", "image", "imageID"],
    },
  ),
  [coreName("ContainerState")]: obj(
    {
      waiting: core("ContainerStateWaiting", "Details about a waiting container."),
      running: core("ContainerStateRunning", "Details about a running container."),
      terminated: core("ContainerStateTerminated", "Details about a terminated container."),
    },
    {
      description:
        "ContainerState holds a possible state of container; only one member may be specified.",
    },
  ),
  [coreName("ContainerStateWaiting")]: obj(
    {
      reason: str("Reason the container is not yet running."),
      message: str("Message regarding why the container is not yet running."),
    },
    { description: "ContainerStateWaiting is a waiting state of a container." },
  ),
  [coreName("ContainerStateRunning")]: obj(
    { startedAt: timeRef("Time at which the container was last (re-)started.") },
    { description: "ContainerStateRunning is a running state of a container." },
  ),
  [coreName("ContainerStateTerminated")]: obj(
    {
      exitCode: int32("Exit status from the last termination of the container."),
      signal: int32("Signal from the last termination of the container."),
      reason: str("(brief) reason from the last termination of the container."),
      message: str("Message regarding the last termination of the container."),
      startedAt: timeRef("Time at which previous execution of the container started."),
      finishedAt: timeRef("Time at which the container last terminated."),
      containerID: str("Container's ID in the format '<type>://<container_id>'."),
    },
    {
      description: "ContainerStateTerminated is a terminated state of a container.",
      required: ["exitCode"],
    },
  ),
  [coreName("ReplicationController")]: kindSchema(
    "ReplicationController",
    "ReplicationController represents the configuration of a replication controller.",
    {
      spec: core(
        "ReplicationControllerSpec",
        "Spec defines the specification of the desired behavior of the replication controller.",
      ),
      status: core(
        "ReplicationControllerStatus",
        "Status is the most recently observed status of the replication controller.",
      ),
    },
  ),
  [coreName("ReplicationControllerList")]: listSchema(
    "ReplicationController",
    core("ReplicationController"),
  ),
  [coreName("ReplicationControllerSpec")]: obj(
    {
      replicas: int32("The number of desired replicas. Defaults to 1."),
      minReadySeconds: int32(
        "Minimum number of seconds for which a newly created pod should be ready without any of its container crashing.",
      ),
      selector: atomicMap(
        "A label query over pods that should match the Replicas count; defaults to the template's labels.",
      ),
      template: core(
        "PodTemplateSpec",
        "The object that describes the pod that will be created if insufficient replicas are detected.",
      ),
    },
    { description: "ReplicationControllerSpec is the specification of a replication controller." },
  ),
  [coreName("ReplicationControllerStatus")]: obj(
    {
      replicas: int32("The most recently observed number of replicas."),
      fullyLabeledReplicas: int32(
        "The number of pods that have labels matching the labels of the pod template.",
      ),
      readyReplicas: int32("The number of ready replicas for this replication controller."),
      availableReplicas: int32(
        "The number of available replicas (ready for at least minReadySeconds).",
      ),
      observedGeneration: int64(
        "The most recent generation observed by the replication controller.",
      ),
      conditions: mapList(core("ReplicationControllerCondition"), "type", {
        description:
          "Represents the latest available observations of a replication controller's current state.",
      }),
    },
    {
      description:
        "ReplicationControllerStatus represents the current status of a replication controller.",
      required: ["replicas"],
    },
  ),
  [coreName("ReplicationControllerCondition")]: obj(
    {
      type: str("Type of replication controller condition."),
      status: str("Status of the condition, one of True, False, Unknown."),
      lastTransitionTime: timeRef(
        "The last time the condition transitioned from one status to another.",
      ),
      reason: str("The reason for the condition's last transition."),
      message: str("A human readable message indicating details about the transition."),
    },
    {
      description:
        "ReplicationControllerCondition describes the state of a replication controller at a certain point.",
      required: ["type", "status"],
    },
  ),
  [coreName("Binding")]: kindSchema(
    "Binding",
    "Binding ties one object to another; for example, a pod is bound to a node by a scheduler.",
    {
      target: core(
        "ObjectReference",
        "The target object that you want to bind to the standard object.",
      ),
    },
    ["target"],
  ),
  [coreName("ObjectReference")]: {
    ...obj(
      {
        kind: str("Kind of the referent."),
        namespace: str("Namespace of the referent."),
        name: str("Name of the referent."),
        uid: str("UID of the referent."),
        apiVersion: str("API version of the referent."),
        resourceVersion: str("Specific resourceVersion to which this reference is made, if any."),
        fieldPath: str(
          "If referring to a piece of an object instead of an entire object, a JSON path to it.",
        ),
      },
      {
        description:
          "ObjectReference contains enough information to let you inspect or modify the referred object.",
      },
    ),
    "x-kubernetes-map-type": "atomic",
  },
  [coreName("Event")]: kindSchema(
    "Event",
    "Event is a report of an event somewhere in the cluster.",
    {
      involvedObject: core("ObjectReference", "The object that this event is about."),
      reason: str(
        "A short, machine understandable string that gives the reason for the transition into the object's current status.",
      ),
      message: str("A human-readable description of the status of this operation."),
      source: core("EventSource", "The component reporting this event."),
      firstTimestamp: timeRef("The time at which the event was first recorded."),
      lastTimestamp: timeRef(
        "The time at which the most recent occurrence of this event was recorded.",
      ),
      count: int32("The number of times this event has occurred."),
      type: str("Type of this event (Normal, Warning)."),
      eventTime: ref(m.microTime, "Time when this Event was first observed."),
      series: core("EventSeries", "Data about the Event series this event represents."),
      action: str("What action was taken/failed regarding to the Regarding object."),
      related: core("ObjectReference", "Optional secondary object for more complex actions."),
      reportingComponent: str(
        "Name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`.",
      ),
      reportingInstance: str("ID of the controller instance, e.g. `kubelet-xyzf`."),
    },
    ["metadata", "involvedObject"],
  ),
  [coreName("EventList")]: listSchema("Event", core("Event")),
  [coreName("EventSource")]: obj(
    {
      component: str("Component from which the event is generated."),
      host: str("Node name on which the event is generated."),
    },
    { description: "EventSource contains information for an event." },
  ),
  [coreName("EventSeries")]: obj(
    {
      count: int32("Number of occurrences in this series up to the last heartbeat time."),
      lastObservedTime: ref(m.microTime, "Time of the last occurrence observed."),
    },
    { description: "EventSeries contain information on series of events." },
  ),
};
