/**
 * Kueue's CustomResourceDefinitions (kubernetes-sigs/kueue v0.14, config/components/crd/bases):
 * ResourceFlavor, ClusterQueue, LocalQueue, Workload and WorkloadPriorityClass in
 * `kueue.x-k8s.io/v1beta1`, with upstream's names, scopes, short names, status subresources,
 * printer columns and defaults, and the validation a structural schema can express (enums,
 * bounds, item limits, name patterns). Upstream's CEL rules and webhook checks that a schema
 * cannot express are checked by the queueing component or not at all (docs/deviations.md). Pod
 * templates keep what they are sent (`preserve-unknown-fields`). Every declared field carries
 * upstream's description (kueue-descriptions.ts, kueue-workload-descriptions.ts), so
 * `kubectl explain` reads as it does against Kueue's own CRDs.
 */
import type { CustomResourceDefinition, JSONSchemaProps } from "../../api/index.ts";
import { type Descriptions, describe } from "./describe.ts";
import { queueDescriptions } from "./kueue-descriptions.ts";
import { workloadDescriptions } from "./kueue-workload-descriptions.ts";

const group = "kueue.x-k8s.io";
const dnsLabel = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$";
const dnsSubdomain = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$";
const quantityPattern =
  "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$";

const str = (extra: JSONSchemaProps = {}): JSONSchemaProps => ({ type: "string", ...extra });
const int32 = (extra: JSONSchemaProps = {}): JSONSchemaProps => ({
  type: "integer",
  format: "int32",
  ...extra,
});
const quantity: JSONSchemaProps = {
  anyOf: [{ type: "integer" }, { type: "string" }],
  pattern: quantityPattern,
  "x-kubernetes-int-or-string": true,
};
const stringMap = (extra: JSONSchemaProps = {}): JSONSchemaProps => ({
  type: "object",
  additionalProperties: { type: "string" },
  ...extra,
});
const arrayOf = (items: JSONSchemaProps, extra: JSONSchemaProps = {}): JSONSchemaProps => ({
  type: "array",
  items,
  ...extra,
});
const object = (
  properties: Record<string, JSONSchemaProps>,
  extra: JSONSchemaProps = {},
): JSONSchemaProps => ({ type: "object", properties, ...extra });
const resourceList: JSONSchemaProps = { type: "object", additionalProperties: quantity };

const labelSelector: JSONSchemaProps = object(
  {
    matchExpressions: arrayOf(
      object(
        { key: str(), operator: str(), values: arrayOf(str()) },
        { required: ["key", "operator"] },
      ),
    ),
    matchLabels: stringMap(),
  },
  { "x-kubernetes-map-type": "atomic" },
);

const condition: JSONSchemaProps = object(
  {
    lastTransitionTime: str({ format: "date-time" }),
    message: str({ maxLength: 32768 }),
    observedGeneration: { type: "integer", format: "int64", minimum: 0 },
    reason: str({
      maxLength: 1024,
      minLength: 1,
      pattern: "^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$",
    }),
    status: str({ enum: ["True", "False", "Unknown"] }),
    type: str({ maxLength: 316 }),
  },
  { required: ["lastTransitionTime", "message", "reason", "status", "type"] },
);
const conditions = arrayOf(condition, {
  "x-kubernetes-list-type": "map",
  "x-kubernetes-list-map-keys": ["type"],
});

const toleration: JSONSchemaProps = object({
  effect: str(),
  key: str(),
  operator: str(),
  tolerationSeconds: { type: "integer", format: "int64" },
  value: str(),
});
const taint: JSONSchemaProps = object(
  {
    effect: str({ enum: ["NoSchedule", "PreferNoSchedule", "NoExecute"] }),
    key: str(),
    timeAdded: str({ format: "date-time" }),
    value: str(),
  },
  { required: ["effect", "key"] },
);

const podTemplate: JSONSchemaProps = object({
  metadata: object({
    annotations: stringMap(),
    finalizers: arrayOf(str()),
    labels: stringMap(),
    name: str(),
    namespace: str(),
  }),
  spec: object(
    { containers: arrayOf({ type: "object", "x-kubernetes-preserve-unknown-fields": true }) },
    { required: ["containers"], "x-kubernetes-preserve-unknown-fields": true },
  ),
});

const flavorUsage = (withBorrowed: boolean): JSONSchemaProps =>
  arrayOf(
    object(
      {
        name: str({ maxLength: 253, pattern: dnsSubdomain }),
        resources: arrayOf(
          object(
            {
              name: str(),
              total: quantity,
              ...(withBorrowed ? { borrowed: quantity } : {}),
            },
            { required: ["name"] },
          ),
          { maxItems: 16, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"] },
        ),
      },
      { required: ["name", "resources"] },
    ),
    { maxItems: 16, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"] },
  );

const resourceFlavorSpec = object({
  nodeLabels: stringMap({ maxProperties: 8, "x-kubernetes-map-type": "atomic" }),
  nodeTaints: arrayOf(taint, { maxItems: 8, "x-kubernetes-list-type": "atomic" }),
  tolerations: arrayOf(toleration, { maxItems: 8, "x-kubernetes-list-type": "atomic" }),
  topologyName: str({ maxLength: 253, pattern: dnsSubdomain }),
});

const policy = (values: string[]): JSONSchemaProps => str({ enum: values, default: "Never" });

const clusterQueueSpec = object({
  admissionChecks: arrayOf(str()),
  cohort: str({ maxLength: 253, pattern: dnsSubdomain }),
  flavorFungibility: object(
    {
      whenCanBorrow: str({ enum: ["Borrow", "TryNextFlavor"], default: "Borrow" }),
      whenCanPreempt: str({ enum: ["Preempt", "TryNextFlavor"], default: "TryNextFlavor" }),
    },
    { default: {} },
  ),
  namespaceSelector: labelSelector,
  preemption: object(
    {
      borrowWithinCohort: object({
        maxPriorityThreshold: int32(),
        policy: str({ enum: ["Never", "LowerPriority"], default: "Never" }),
      }),
      reclaimWithinCohort: policy(["Never", "LowerPriority", "Any"]),
      withinClusterQueue: policy(["Never", "LowerPriority", "LowerOrNewerEqualPriority"]),
    },
    { default: {} },
  ),
  queueingStrategy: str({ enum: ["StrictFIFO", "BestEffortFIFO"], default: "BestEffortFIFO" }),
  resourceGroups: arrayOf(
    object(
      {
        coveredResources: arrayOf(str(), { minItems: 1, maxItems: 64 }),
        flavors: arrayOf(
          object(
            {
              name: str({ maxLength: 253, pattern: dnsSubdomain }),
              resources: arrayOf(
                object(
                  {
                    borrowingLimit: quantity,
                    lendingLimit: quantity,
                    name: str(),
                    nominalQuota: quantity,
                  },
                  { required: ["name", "nominalQuota"] },
                ),
                {
                  minItems: 1,
                  maxItems: 64,
                  "x-kubernetes-list-type": "map",
                  "x-kubernetes-list-map-keys": ["name"],
                },
              ),
            },
            { required: ["name", "resources"] },
          ),
          {
            minItems: 1,
            maxItems: 64,
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["name"],
          },
        ),
      },
      { required: ["coveredResources", "flavors"] },
    ),
    { maxItems: 16, "x-kubernetes-list-type": "atomic" },
  ),
  stopPolicy: str({ enum: ["None", "Hold", "HoldAndDrain"], default: "None" }),
});

const clusterQueueStatus = object({
  admittedWorkloads: int32(),
  conditions,
  flavorsReservation: flavorUsage(true),
  flavorsUsage: flavorUsage(true),
  pendingWorkloads: int32(),
  reservingWorkloads: int32(),
});

const localQueueSpec = object({
  clusterQueue: str({ maxLength: 253, pattern: dnsSubdomain }),
  stopPolicy: str({ enum: ["None", "Hold", "HoldAndDrain"], default: "None" }),
});

const localQueueStatus = object({
  admittedWorkloads: int32(),
  conditions,
  flavorUsage: flavorUsage(false),
  flavors: arrayOf({ type: "object", "x-kubernetes-preserve-unknown-fields": true }),
  flavorsReservation: flavorUsage(false),
  pendingWorkloads: int32(),
  reservingWorkloads: int32(),
});

const workloadSpec = object(
  {
    active: { type: "boolean", default: true },
    maximumExecutionTimeSeconds: int32({ minimum: 1 }),
    podSets: arrayOf(
      object(
        {
          count: int32({ default: 1, minimum: 0 }),
          minCount: int32({ minimum: 1 }),
          name: str({ default: "main", maxLength: 63, pattern: dnsLabel }),
          template: podTemplate,
          topologyRequest: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
        },
        { required: ["count", "template"] },
      ),
      {
        minItems: 1,
        maxItems: 8,
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["name"],
      },
    ),
    priority: int32(),
    priorityClassName: str({ maxLength: 253, pattern: dnsSubdomain }),
    priorityClassSource: str({
      default: "",
      enum: ["kueue.x-k8s.io/workloadpriorityclass", "scheduling.k8s.io/priorityclass", ""],
    }),
    queueName: str({ maxLength: 253, pattern: dnsSubdomain }),
  },
  { required: ["podSets"] },
);

const workloadStatus = object({
  accumulatedPastExexcutionTimeSeconds: int32(),
  admission: object(
    {
      clusterQueue: str({ maxLength: 253, pattern: dnsSubdomain }),
      podSetAssignments: arrayOf(
        object(
          {
            count: int32({ minimum: 0 }),
            flavors: stringMap(),
            name: str({ default: "main", maxLength: 63, pattern: dnsLabel }),
            resourceUsage: resourceList,
            topologyAssignment: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
          },
          { required: ["name"] },
        ),
        {
          maxItems: 8,
          "x-kubernetes-list-type": "map",
          "x-kubernetes-list-map-keys": ["name"],
        },
      ),
    },
    { required: ["clusterQueue", "podSetAssignments"] },
  ),
  admissionChecks: arrayOf({ type: "object", "x-kubernetes-preserve-unknown-fields": true }),
  conditions,
  reclaimablePods: arrayOf(
    object(
      { count: int32({ minimum: 0 }), name: str({ maxLength: 63, pattern: dnsLabel }) },
      { required: ["count", "name"] },
    ),
    { maxItems: 8, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"] },
  ),
  requeueState: object({ count: int32(), requeueAt: str({ format: "date-time" }) }),
  resourceRequests: arrayOf(
    object(
      { name: str({ default: "main", maxLength: 63, pattern: dnsLabel }), resources: resourceList },
      { required: ["name"] },
    ),
    { maxItems: 8, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"] },
  ),
  schedulingStats: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
});

interface Definition {
  readonly kind: string;
  readonly plural: string;
  readonly shortNames: readonly string[];
  readonly namespaced: boolean;
  readonly properties: Record<string, JSONSchemaProps>;
  readonly required?: readonly string[];
  /** Upstream's field documentation, by field path ("" is the kind's). */
  readonly descriptions: Descriptions;
  readonly status: boolean;
  readonly columns: readonly {
    name: string;
    type: string;
    jsonPath: string;
    description?: string;
    priority?: number;
  }[];
}

function crd(def: Definition): CustomResourceDefinition {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${def.plural}.${group}` },
    spec: {
      group,
      names: {
        kind: def.kind,
        listKind: `${def.kind}List`,
        plural: def.plural,
        singular: def.kind.toLowerCase(),
        ...(def.shortNames.length === 0 ? {} : { shortNames: [...def.shortNames] }),
      },
      scope: def.namespaced ? "Namespaced" : "Cluster",
      versions: [
        {
          name: "v1beta1",
          served: true,
          storage: true,
          ...(def.columns.length === 0
            ? {}
            : { additionalPrinterColumns: def.columns.map((c) => ({ ...c })) }),
          schema: {
            openAPIV3Schema: describe(
              {
                type: "object",
                properties: {
                  apiVersion: str(),
                  kind: str(),
                  metadata: { type: "object" },
                  ...def.properties,
                },
                ...(def.required === undefined ? {} : { required: [...def.required] }),
              },
              def.descriptions,
            ),
          },
          ...(def.status ? { subresources: { status: {} } } : {}),
        },
      ],
    },
  } as CustomResourceDefinition;
}

/** Every Kueue CRD gantry installs, in dependency order (flavors before queues). */
export function kueueCrds(): CustomResourceDefinition[] {
  return [
    crd({
      kind: "ResourceFlavor",
      plural: "resourceflavors",
      shortNames: ["flavor", "flavors", "rf"],
      namespaced: false,
      properties: { spec: resourceFlavorSpec },
      descriptions: queueDescriptions.resourceFlavor,
      status: false,
      columns: [],
    }),
    crd({
      kind: "ClusterQueue",
      plural: "clusterqueues",
      shortNames: ["cq"],
      namespaced: false,
      properties: { spec: clusterQueueSpec, status: clusterQueueStatus },
      descriptions: queueDescriptions.clusterQueue,
      status: true,
      columns: [
        {
          name: "Cohort",
          type: "string",
          jsonPath: ".spec.cohort",
          description: "Cohort that this ClusterQueue belongs to",
        },
        {
          name: "Strategy",
          type: "string",
          jsonPath: ".spec.queueingStrategy",
          description: "The queueing strategy used to prioritize workloads",
          priority: 1,
        },
        {
          name: "Pending Workloads",
          type: "integer",
          jsonPath: ".status.pendingWorkloads",
          description: "Number of pending workloads",
        },
        {
          name: "Admitted Workloads",
          type: "integer",
          jsonPath: ".status.admittedWorkloads",
          description: "Number of admitted workloads that haven't finished yet",
          priority: 1,
        },
      ],
    }),
    crd({
      kind: "LocalQueue",
      plural: "localqueues",
      shortNames: ["queue", "queues", "lq"],
      namespaced: true,
      properties: { spec: localQueueSpec, status: localQueueStatus },
      descriptions: queueDescriptions.localQueue,
      status: true,
      columns: [
        {
          name: "ClusterQueue",
          type: "string",
          jsonPath: ".spec.clusterQueue",
          description: "Backing ClusterQueue",
        },
        {
          name: "Pending Workloads",
          type: "integer",
          jsonPath: ".status.pendingWorkloads",
          description: "Number of pending workloads",
        },
        {
          name: "Admitted Workloads",
          type: "integer",
          jsonPath: ".status.admittedWorkloads",
          description: "Number of admitted workloads that haven't finished yet.",
        },
      ],
    }),
    crd({
      kind: "Workload",
      plural: "workloads",
      shortNames: ["wl"],
      namespaced: true,
      properties: { spec: workloadSpec, status: workloadStatus },
      descriptions: workloadDescriptions.workload,
      status: true,
      columns: [
        {
          name: "Queue",
          type: "string",
          jsonPath: ".spec.queueName",
          description: "Name of the queue this workload was submitted to",
        },
        {
          name: "Reserved in",
          type: "string",
          jsonPath: ".status.admission.clusterQueue",
          description: "Name of the ClusterQueue where the workload is reserving quota",
        },
        {
          name: "Admitted",
          type: "string",
          jsonPath: ".status.conditions[?(@.type=='Admitted')].status",
          description: "Admission status",
        },
        {
          name: "Finished",
          type: "string",
          jsonPath: ".status.conditions[?(@.type=='Finished')].status",
          description: "Workload finished",
        },
        {
          name: "Age",
          type: "date",
          jsonPath: ".metadata.creationTimestamp",
          description: "Time this workload was created",
        },
      ],
    }),
    crd({
      kind: "WorkloadPriorityClass",
      plural: "workloadpriorityclasses",
      shortNames: [],
      namespaced: false,
      properties: { value: int32(), description: str() },
      required: ["value"],
      descriptions: workloadDescriptions.workloadPriorityClass,
      status: false,
      columns: [
        {
          name: "Value",
          type: "integer",
          jsonPath: ".value",
          description: "Value of workloadPriorityClass's Priority",
        },
      ],
    }),
  ];
}
