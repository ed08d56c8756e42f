import assert from "node:assert/strict";
import { test } from "node:test";
import { fieldErrorString } from "../../meta/field-errors.ts";
import { applyPodDefaults } from "./pod.ts";
import type { Pod } from "./pod-types.ts";
import { validatePodCreate, validatePodStatusUpdate, validatePodUpdate } from "./pod-validation.ts";

function makePod(edit: (pod: Pod) => void = () => {}): Pod {
  const pod: Pod = {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "p", namespace: "default" },
    spec: { containers: [{ name: "app", image: "nginx:1.25" }] },
  };
  edit(pod);
  applyPodDefaults(pod);
  return pod;
}

function stored(edit: (pod: Pod) => void = () => {}): Pod {
  return makePod((p) => {
    p.metadata = {
      ...p.metadata,
      uid: "u1",
      resourceVersion: "1",
      creationTimestamp: "2024-01-01T00:00:00Z",
    };
    edit(p);
  });
}

test("applyPodDefaults: fills upstream's pod defaults", () => {
  const pod = makePod((p) => {
    p.spec.containers = [
      {
        name: "a",
        image: "nginx",
        ports: [{ containerPort: 80 }],
        resources: { limits: { cpu: "1000m", memory: 1073741824 as unknown as string } },
      },
      { name: "b", image: "nginx:1.25" },
      { name: "c", image: "nginx@sha256:abc" },
      { name: "d", image: "localhost:5000/nginx" },
    ];
  });
  assert.equal(pod.spec.restartPolicy, "Always");
  assert.equal(pod.spec.dnsPolicy, "ClusterFirst");
  assert.equal(pod.spec.terminationGracePeriodSeconds, 30);
  assert.equal(pod.spec.schedulerName, "default-scheduler");
  assert.deepEqual(pod.spec.securityContext, {});
  assert.equal(pod.spec.enableServiceLinks, true);
  assert.equal(pod.spec.priority, 0);
  assert.equal(pod.spec.preemptionPolicy, "PreemptLowerPriority");
  const [a, b, c, d] = pod.spec.containers;
  assert.equal(a?.imagePullPolicy, "Always");
  assert.equal(b?.imagePullPolicy, "IfNotPresent");
  assert.equal(c?.imagePullPolicy, "IfNotPresent");
  assert.equal(d?.imagePullPolicy, "Always");
  assert.equal(a?.terminationMessagePath, "/dev/termination-log");
  assert.equal(a?.terminationMessagePolicy, "File");
  assert.equal(a?.ports?.[0]?.protocol, "TCP");
  assert.deepEqual(a?.resources?.limits, { cpu: "1", memory: "1073741824" });
  assert.deepEqual(a?.resources?.requests, { cpu: "1", memory: "1073741824" });
  assert.equal(pod.status?.phase, "Pending");
  assert.equal(pod.status?.qosClass, "Burstable");
});

test("applyPodDefaults: a pod with a PriorityClass keeps priority unset for admission", () => {
  const pod = makePod((p) => {
    p.spec.priorityClassName = "high";
  });
  assert.equal(pod.spec.priority, undefined);
  assert.equal(pod.spec.preemptionPolicy, undefined);
});

test("applyPodDefaults: probes, volumes and host-network ports", () => {
  const pod = makePod((p) => {
    p.spec.hostNetwork = true;
    p.spec.volumes = [{ name: "v" }, { name: "s", secret: { secretName: "x" } }];
    p.spec.containers = [
      {
        name: "a",
        image: "nginx",
        ports: [{ containerPort: 8080 }],
        livenessProbe: { httpGet: { port: 8080 } },
      },
    ];
  });
  assert.deepEqual(pod.spec.volumes?.[0], { name: "v", emptyDir: {} });
  assert.equal(pod.spec.volumes?.[1]?.secret?.defaultMode, 420);
  assert.equal(pod.spec.containers[0]?.ports?.[0]?.hostPort, 8080);
  assert.deepEqual(pod.spec.containers[0]?.livenessProbe, {
    httpGet: { port: 8080, path: "/", scheme: "HTTP" },
    timeoutSeconds: 1,
    periodSeconds: 10,
    successThreshold: 1,
    failureThreshold: 3,
  });
});

const createCases: { name: string; edit: (p: Pod) => void; want: string[] }[] = [
  { name: "a minimal pod is valid", edit: () => {}, want: [] },
  {
    name: "images are required",
    edit: (p) => {
      p.spec.containers = [{ name: "a" }, { name: "b" }];
    },
    want: ["spec.containers[0].image: Required value", "spec.containers[1].image: Required value"],
  },
  {
    name: "containers are required",
    edit: (p) => {
      p.spec.containers = [];
    },
    want: ["spec.containers: Required value"],
  },
  {
    name: "duplicate container names",
    edit: (p) => {
      p.spec.containers = [
        { name: "a", image: "x" },
        { name: "a", image: "y" },
      ];
    },
    want: ['spec.containers[1].name: Duplicate value: "a"'],
  },
  {
    name: "an init container may not reuse a container name",
    edit: (p) => {
      p.spec.initContainers = [{ name: "app", image: "x" }];
    },
    want: ['spec.initContainers[0].name: Duplicate value: "app"'],
  },
  {
    name: "requests above limits",
    edit: (p) => {
      p.spec.containers = [
        { name: "a", image: "x", resources: { requests: { cpu: "2" }, limits: { cpu: "500m" } } },
      ];
    },
    want: [
      'spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 500m',
    ],
  },
  {
    name: "unknown restart policy",
    edit: (p) => {
      p.spec.restartPolicy = "Sometimes" as "Always";
    },
    want: [
      'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
    ],
  },
  {
    name: "only sidecars may have probes",
    edit: (p) => {
      p.spec.initContainers = [
        { name: "init", image: "x", readinessProbe: { exec: { command: ["true"] } } },
        {
          name: "side",
          image: "x",
          restartPolicy: "Always",
          readinessProbe: { exec: { command: ["true"] } },
        },
      ];
    },
    want: [
      "spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always",
    ],
  },
  {
    name: "scheduling gates must be unique qualified names",
    edit: (p) => {
      p.spec.schedulingGates = [{ name: "example.com/gate" }, { name: "example.com/gate" }];
    },
    want: ['spec.schedulingGates[1]: Duplicate value: "example.com/gate"'],
  },
  {
    name: "nodeName with scheduling gates",
    edit: (p) => {
      p.spec.schedulingGates = [{ name: "g" }];
      p.spec.nodeName = "n1";
    },
    want: ["spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared"],
  },
  {
    name: "toleration with empty key needs Exists",
    edit: (p) => {
      p.spec.tolerations = [{ operator: "Equal", value: "x" }];
    },
    want: [
      'spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
    ],
  },
  {
    name: "workloadRef with a standalone PodGroup",
    edit: (p) => {
      p.spec.workloadRef = { name: "job-1", podGroupName: "pg-1" };
    },
    want: [],
  },
  {
    name: "workloadRef with neither group field",
    edit: (p) => {
      p.spec.workloadRef = { name: "job-1" };
    },
    want: ['spec.workloadRef: Invalid value: "": must specify one of: `podGroupName`, `podGroup`'],
  },
  {
    name: "workloadRef replica key without podGroup",
    edit: (p) => {
      p.spec.workloadRef = { name: "job-1", podGroupName: "pg", podGroupReplicaKey: "0" };
    },
    want: [
      "spec.workloadRef.podGroupReplicaKey: Forbidden: may only be set together with `podGroup`",
    ],
  },
  {
    name: "volume mount of an unknown volume",
    edit: (p) => {
      p.spec.containers = [
        { name: "a", image: "x", volumeMounts: [{ name: "nope", mountPath: "/data" }] },
      ];
    },
    want: ['spec.containers[0].volumeMounts[0].name: Not found: "nope"'],
  },
];

for (const c of createCases) {
  test(`validatePodCreate: ${c.name}`, () => {
    assert.deepEqual(validatePodCreate(makePod(c.edit)).map(fieldErrorString), c.want);
  });
}

const updateCases: {
  name: string;
  old: Pod;
  next: (p: Pod) => void;
  want: (msgs: string[]) => void;
}[] = [
  {
    name: "image changes are allowed",
    old: stored(),
    next: (p) => {
      p.spec.containers[0] = { ...p.spec.containers[0], name: "app", image: "nginx:1.26" };
    },
    want: (msgs) => assert.deepEqual(msgs, []),
  },
  {
    name: "other spec changes are forbidden with upstream's message",
    old: stored(),
    next: (p) => {
      p.spec.nodeName = "n2";
    },
    want: (msgs) => {
      assert.equal(msgs.length, 1);
      assert.ok(
        msgs[0]?.startsWith(
          "spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n",
        ),
        'msgs[0]?.startsWith("spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\\n",)',
      );
    },
  },
  {
    name: "scheduling gates may be removed",
    old: stored((p) => {
      p.spec.schedulingGates = [{ name: "a" }, { name: "b" }];
    }),
    next: (p) => {
      p.spec.schedulingGates = [{ name: "b" }];
    },
    want: (msgs) => assert.deepEqual(msgs, []),
  },
  {
    name: "scheduling gates may not be added",
    old: stored(),
    next: (p) => {
      p.spec.schedulingGates = [{ name: "late" }];
    },
    want: (msgs) =>
      assert.deepEqual(msgs, [
        "spec.schedulingGates[0].name: Forbidden: only deletion is allowed, but found new scheduling gate 'late'",
      ]),
  },
  {
    name: "workloadRef is immutable",
    old: stored((p) => {
      p.spec.workloadRef = { name: "w", podGroup: "pg" };
    }),
    next: (p) => {
      p.spec.workloadRef = { name: "w", podGroup: "other" };
    },
    want: (msgs) =>
      assert.ok(
        msgs[0]?.startsWith("spec: Forbidden: pod updates may not change fields other than"),
        'msgs[0]?.startsWith("spec: Forbidden: pod updates may not change fields other than")',
      ),
  },
  {
    name: "containers may not be added",
    old: stored(),
    next: (p) => {
      p.spec.containers.push({
        name: "b",
        image: "x",
        imagePullPolicy: "IfNotPresent",
        terminationMessagePolicy: "File",
      });
    },
    want: (msgs) =>
      assert.deepEqual(msgs, [
        "spec.containers: Forbidden: pod updates may not add or remove containers",
      ]),
  },
  {
    name: "tolerations may be added",
    old: stored(),
    next: (p) => {
      p.spec.tolerations = [{ key: "k", operator: "Exists", effect: "NoSchedule" }];
    },
    want: (msgs) => assert.deepEqual(msgs, []),
  },
];

for (const c of updateCases) {
  test(`validatePodUpdate: ${c.name}`, () => {
    const next = structuredClone(c.old);
    c.next(next);
    c.want(validatePodUpdate(next, c.old).map(fieldErrorString));
  });
}

test("validatePodStatusUpdate: nodeName and qosClass may not change", () => {
  const old = stored();
  const next = structuredClone(old);
  next.spec.nodeName = "n1";
  next.status = { ...next.status, qosClass: "Guaranteed" };
  assert.deepEqual(validatePodStatusUpdate(next, old).map(fieldErrorString), [
    "status.nodeName: Forbidden: may not be changed directly",
    'status.qosClass: Invalid value: "Guaranteed": field is immutable',
  ]);
});
