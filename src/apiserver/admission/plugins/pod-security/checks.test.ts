// Every check of the standards, one table: allowed and forbidden pods with the exact reason and
// detail strings. Most forbidden cases are upstream's own fixtures (policy/check_*_test.go).
import assert from "node:assert/strict";
import { test } from "node:test";
import type { PodSpec } from "../../../../api/index.ts";
import type { CheckResult, PodMetadata } from "./check.ts";
import { defaultChecks } from "./evaluator.ts";

/** The revision of check `id` that applies at policy version v1.`minor`. */
function run(id: string, minor: number, spec: object, metadata: PodMetadata = {}): CheckResult {
  const check = defaultChecks.find((c) => c.id === id);
  assert.ok(check !== undefined, `no check ${id}`);
  const revision = [...check.versions].reverse().find((v) => v.minimumVersion <= minor);
  assert.ok(revision !== undefined, `check ${id} does not exist at v1.${minor}`);
  return revision.checkPod(metadata, { containers: [], ...spec } as PodSpec);
}

type Want = "allowed" | readonly [reason: string, detail: string];

interface Case {
  readonly name: string;
  readonly id: string;
  /** @default 35 (latest) */
  readonly minor?: number;
  readonly spec?: object;
  readonly metadata?: PodMetadata;
  readonly want: Want;
}

const sc = (name: string, securityContext: object) => ({ name, securityContext });
const aa = "container.apparmor.security.beta.kubernetes.io/";

const cases: readonly Case[] = [
  // allowPrivilegeEscalation
  {
    name: "containers without allowPrivilegeEscalation=false",
    id: "allowPrivilegeEscalation",
    spec: {
      containers: [
        { name: "a" },
        sc("b", {}),
        sc("c", { allowPrivilegeEscalation: true }),
        sc("d", { allowPrivilegeEscalation: false }),
      ],
    },
    want: [
      "allowPrivilegeEscalation != false",
      'containers "a", "b", "c" must set securityContext.allowPrivilegeEscalation=false',
    ],
  },
  {
    name: "a windows pod is exempt from v1.25",
    id: "allowPrivilegeEscalation",
    spec: { os: { name: "windows" }, containers: [{ name: "a" }] },
    want: "allowed",
  },
  {
    name: "a windows pod is not exempt before v1.25",
    id: "allowPrivilegeEscalation",
    minor: 24,
    spec: { os: { name: "windows" }, containers: [{ name: "a" }] },
    want: [
      "allowPrivilegeEscalation != false",
      'container "a" must set securityContext.allowPrivilegeEscalation=false',
    ],
  },
  {
    name: "a linux pod without a security context",
    id: "allowPrivilegeEscalation",
    spec: { os: { name: "linux" }, containers: [{ name: "a" }] },
    want: [
      "allowPrivilegeEscalation != false",
      'container "a" must set securityContext.allowPrivilegeEscalation=false',
    ],
  },
  // appArmorProfile
  {
    name: "default and localhost AppArmor annotations",
    id: "appArmorProfile",
    metadata: {
      annotations: { [`${aa}a`]: "runtime/default", [`${aa}b`]: "localhost/x", env: "x" },
    },
    want: "allowed",
  },
  {
    name: "RuntimeDefault and Localhost profile fields",
    id: "appArmorProfile",
    spec: {
      securityContext: { appArmorProfile: { type: "RuntimeDefault" } },
      containers: [sc("foo", { appArmorProfile: { type: "Localhost", localhostProfile: "p" } })],
    },
    want: "allowed",
  },
  {
    name: "an unconfined pod",
    id: "appArmorProfile",
    spec: { securityContext: { appArmorProfile: { type: "Unconfined" } } },
    want: ["forbidden AppArmor profile", 'pod must not set AppArmor profile type to "Unconfined"'],
  },
  {
    name: "an unconfined container",
    id: "appArmorProfile",
    spec: {
      securityContext: { appArmorProfile: { type: "RuntimeDefault" } },
      containers: [sc("foo", { appArmorProfile: { type: "Unconfined" } })],
    },
    want: [
      "forbidden AppArmor profile",
      'container "foo" must not set AppArmor profile type to "Unconfined"',
    ],
  },
  {
    name: "an unconfined init container",
    id: "appArmorProfile",
    spec: {
      containers: [{ name: "foo" }],
      initContainers: [sc("bar", { appArmorProfile: { type: "Unconfined" } })],
    },
    want: [
      "forbidden AppArmor profile",
      'container "bar" must not set AppArmor profile type to "Unconfined"',
    ],
  },
  {
    name: "forbidden AppArmor annotations",
    id: "appArmorProfile",
    metadata: {
      annotations: {
        [aa]: "bogus",
        [`${aa}a`]: "",
        [`${aa}b`]: "runtime/default",
        [`${aa}c`]: "localhost/",
        [`${aa}d`]: "localhost/foo",
        [`${aa}e`]: "unconfined",
        [`${aa}f`]: "unknown",
      },
    },
    want: [
      "forbidden AppArmor profiles",
      `annotations must not set AppArmor profile type to "${aa}="bogus"", "${aa}e="unconfined"", "${aa}f="unknown""`,
    ],
  },
  // capabilities
  {
    name: "non-default capabilities added",
    id: "capabilities_baseline",
    spec: {
      containers: [
        sc("a", { capabilities: { add: ["FOO", "BAR"] } }),
        sc("b", { capabilities: { add: ["BAR", "BAZ"] } }),
      ],
    },
    want: [
      "non-default capabilities",
      'containers "a", "b" must not include "BAR", "BAZ", "FOO" in securityContext.capabilities.add',
    ],
  },
  {
    name: "default capabilities may be added",
    id: "capabilities_baseline",
    spec: { containers: [sc("a", { capabilities: { add: ["CHOWN", "NET_BIND_SERVICE"] } })] },
    want: "allowed",
  },
  {
    name: "capabilities not dropped and extra ones added",
    id: "capabilities_restricted",
    spec: {
      containers: [
        sc("a", { capabilities: { add: ["FOO", "BAR"] } }),
        sc("b", { capabilities: { add: ["BAR", "BAZ"] } }),
        sc("c", { capabilities: { add: ["NET_BIND_SERVICE", "CHOWN"], drop: ["ALL", "FOO"] } }),
      ],
    },
    want: [
      "unrestricted capabilities",
      'containers "a", "b" must set securityContext.capabilities.drop=["ALL"]; containers "a", "b", "c" must not include "BAR", "BAZ", "CHOWN", "FOO" in securityContext.capabilities.add',
    ],
  },
  {
    name: "ALL dropped and NET_BIND_SERVICE added",
    id: "capabilities_restricted",
    spec: { containers: [sc("a", { capabilities: { add: ["NET_BIND_SERVICE"], drop: ["ALL"] } })] },
    want: "allowed",
  },
  {
    name: "a windows pod need not drop capabilities from v1.25",
    id: "capabilities_restricted",
    spec: { os: { name: "windows" }, containers: [{ name: "a" }] },
    want: "allowed",
  },
  // hostNamespaces
  {
    name: "every host namespace",
    id: "hostNamespaces",
    spec: { hostNetwork: true, hostIPC: true, hostPID: true },
    want: ["host namespaces", "hostNetwork=true, hostPID=true, hostIPC=true"],
  },
  {
    name: "host namespaces set to false",
    id: "hostNamespaces",
    spec: { hostNetwork: false, hostIPC: false, hostPID: false },
    want: "allowed",
  },
  // hostPathVolumes
  {
    name: "hostPath volumes",
    id: "hostPathVolumes",
    spec: {
      volumes: [
        { name: "a", emptyDir: {} },
        { name: "b", hostPath: { path: "/b" } },
        { name: "c", hostPath: { path: "/c" } },
      ],
    },
    want: ["hostPath volumes", 'volumes "b", "c"'],
  },
  {
    name: "one hostPath volume",
    id: "hostPathVolumes",
    spec: { volumes: [{ name: "b", hostPath: { path: "/b" } }] },
    want: ["hostPath volumes", 'volume "b"'],
  },
  // hostPorts
  {
    name: "one container with one host port",
    id: "hostPorts",
    spec: {
      containers: [
        { name: "a", ports: [{ containerPort: 1, hostPort: 0 }] },
        {
          name: "b",
          ports: [
            { containerPort: 1, hostPort: 0 },
            { containerPort: 2, hostPort: 20 },
          ],
        },
      ],
    },
    want: ["hostPort", 'container "b" uses hostPort 20'],
  },
  {
    name: "several containers with host ports",
    id: "hostPorts",
    spec: {
      containers: [
        { name: "a", ports: [{ containerPort: 1, hostPort: 0 }] },
        {
          name: "b",
          ports: [
            { containerPort: 1, hostPort: 10 },
            { containerPort: 2, hostPort: 20 },
          ],
        },
        {
          name: "c",
          ports: [
            { containerPort: 1, hostPort: 10 },
            { containerPort: 2, hostPort: 30 },
          ],
        },
      ],
    },
    want: ["hostPort", 'containers "b", "c" use hostPorts 10, 20, 30'],
  },
  // hostProbesAndHostLifecycle
  {
    name: "probes without a host",
    id: "hostProbesAndHostLifecycle",
    spec: { containers: [{ name: "a", livenessProbe: { httpGet: { port: 80 } } }] },
    want: "allowed",
  },
  {
    name: "probes naming local hosts",
    id: "hostProbesAndHostLifecycle",
    spec: {
      containers: [
        {
          name: "a",
          livenessProbe: { httpGet: { host: "127.0.0.1", port: 80 } },
          readinessProbe: { tcpSocket: { host: "::1", port: 80 } },
          startupProbe: { httpGet: { host: "localhost", port: 80 } },
        },
      ],
    },
    want: [
      "probe or lifecycle host",
      'container "a" uses probe or lifecycle hosts "127.0.0.1", "::1", "localhost"',
    ],
  },
  {
    name: "a poststart tcpSocket host",
    id: "hostProbesAndHostLifecycle",
    spec: {
      containers: [
        { name: "d", lifecycle: { postStart: { tcpSocket: { host: "invalid.host", port: 1 } } } },
      ],
    },
    want: ["probe or lifecycle host", 'container "d" uses probe or lifecycle host "invalid.host"'],
  },
  {
    name: "several containers with several hosts",
    id: "hostProbesAndHostLifecycle",
    spec: {
      containers: [
        { name: "valid" },
        { name: "invalid1", livenessProbe: { httpGet: { host: "a.com", port: 1 } } },
        {
          name: "invalid2",
          lifecycle: { preStop: { tcpSocket: { host: "b.com", port: 1 } } },
          startupProbe: { httpGet: { host: "a.com", port: 1 } },
        },
      ],
    },
    want: [
      "probe or lifecycle host",
      'containers "invalid1", "invalid2" use probe or lifecycle hosts "a.com", "b.com"',
    ],
  },
  {
    name: "a host in an init container",
    id: "hostProbesAndHostLifecycle",
    spec: {
      initContainers: [
        { name: "init", livenessProbe: { httpGet: { host: "invalid.init.host", port: 1 } } },
      ],
    },
    want: [
      "probe or lifecycle host",
      'container "init" uses probe or lifecycle host "invalid.init.host"',
    ],
  },
  // privileged
  {
    name: "privileged containers",
    id: "privileged",
    spec: {
      containers: [
        { name: "a" },
        sc("b", {}),
        sc("c", { privileged: false }),
        sc("d", { privileged: true }),
        sc("e", { privileged: true }),
      ],
    },
    want: ["privileged", 'containers "d", "e" must not set securityContext.privileged=true'],
  },
  // procMount
  {
    name: "unmasked /proc mounts",
    id: "procMount",
    spec: {
      containers: [
        { name: "a" },
        sc("b", {}),
        sc("c", { procMount: "Default" }),
        sc("d", { procMount: "Unmasked" }),
        sc("e", { procMount: "other" }),
      ],
    },
    want: [
      "procMount",
      'containers "d", "e" must not set securityContext.procMount to "Unmasked", "other"',
    ],
  },
  {
    name: "an unmasked /proc mount in a user namespace from v1.35",
    id: "procMount",
    spec: { hostUsers: false, containers: [sc("d", { procMount: "Unmasked" })] },
    want: "allowed",
  },
  {
    name: "an unmasked /proc mount in a user namespace before v1.35",
    id: "procMount",
    minor: 34,
    spec: { hostUsers: false, containers: [sc("d", { procMount: "Unmasked" })] },
    want: ["procMount", 'container "d" must not set securityContext.procMount to "Unmasked"'],
  },
  {
    name: "restricted forbids an unmasked /proc mount even in a user namespace",
    id: "procMount_restricted",
    spec: { hostUsers: false, containers: [sc("d", { procMount: "Unmasked" })] },
    want: ["procMount", 'container "d" must not set securityContext.procMount to "Unmasked"'],
  },
  // restrictedVolumes
  {
    name: "restricted volume types",
    id: "restrictedVolumes",
    spec: {
      volumes: [
        ...[
          "emptyDir",
          "secret",
          "persistentVolumeClaim",
          "downwardAPI",
          "configMap",
          "projected",
          "csi",
          "ephemeral",
          "image",
        ].map((type, i) => ({ name: `a${i + 1}`, [type]: {} })),
        ...[
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
        ].map((type, i) => ({ name: `b${i + 1}`, [type]: {} })),
        { name: "c1" },
      ],
    },
    want: [
      "restricted volume types",
      'volumes "b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8", "b9", "b10", "b11", "b12", "b13", "b14", "b15", "b16", "b17", "b18", "b19", "b20", "b21", "c1" use restricted volume types "awsElasticBlockStore", "azureDisk", "azureFile", "cephfs", "cinder", "fc", "flexVolume", "flocker", "gcePersistentDisk", "gitRepo", "glusterfs", "hostPath", "iscsi", "nfs", "photonPersistentDisk", "portworxVolume", "quobyte", "rbd", "scaleIO", "storageos", "unknown", "vsphereVolume"',
    ],
  },
  {
    name: "one hostPath volume",
    id: "restrictedVolumes",
    spec: { volumes: [{ name: "h", hostPath: { path: "/" } }] },
    want: ["restricted volume types", 'volume "h" uses restricted volume type "hostPath"'],
  },
  // runAsNonRoot
  {
    name: "no explicit runAsNonRoot",
    id: "runAsNonRoot",
    spec: { containers: [{ name: "a" }] },
    want: [
      "runAsNonRoot != true",
      'pod or container "a" must set securityContext.runAsNonRoot=true',
    ],
  },
  {
    name: "pod runAsNonRoot=false",
    id: "runAsNonRoot",
    spec: { securityContext: { runAsNonRoot: false }, containers: [{ name: "a" }] },
    want: ["runAsNonRoot != true", "pod must not set securityContext.runAsNonRoot=false"],
  },
  {
    name: "containers runAsNonRoot=false",
    id: "runAsNonRoot",
    spec: {
      securityContext: { runAsNonRoot: true },
      containers: [
        { name: "a" },
        sc("b", {}),
        sc("c", { runAsNonRoot: false }),
        sc("d", { runAsNonRoot: false }),
        sc("e", { runAsNonRoot: true }),
      ],
    },
    want: [
      "runAsNonRoot != true",
      'containers "c", "d" must not set securityContext.runAsNonRoot=false',
    ],
  },
  {
    name: "pod unset, some containers fall through",
    id: "runAsNonRoot",
    spec: {
      containers: [
        { name: "a" },
        sc("b", {}),
        sc("d", { runAsNonRoot: true }),
        sc("e", { runAsNonRoot: true }),
      ],
    },
    want: [
      "runAsNonRoot != true",
      'pod or containers "a", "b" must set securityContext.runAsNonRoot=true',
    ],
  },
  {
    name: "a user-namespace pod from v1.35",
    id: "runAsNonRoot",
    spec: { hostUsers: false, containers: [{ name: "a" }] },
    want: "allowed",
  },
  {
    name: "a user-namespace pod before v1.35",
    id: "runAsNonRoot",
    minor: 34,
    spec: { hostUsers: false, containers: [{ name: "a" }] },
    want: [
      "runAsNonRoot != true",
      'pod or container "a" must set securityContext.runAsNonRoot=true',
    ],
  },
  // runAsUser
  {
    name: "pod and containers runAsUser=0",
    id: "runAsUser",
    spec: {
      securityContext: { runAsUser: 0 },
      containers: [
        sc("a", { runAsUser: 0 }),
        sc("b", { runAsUser: 1000 }),
        sc("c", { runAsUser: 0 }),
      ],
    },
    want: ["runAsUser=0", 'pod and containers "a", "c" must not set runAsUser=0'],
  },
  {
    name: "non-zero and unset users",
    id: "runAsUser",
    spec: { securityContext: { runAsUser: 1000 }, containers: [{ name: "a" }] },
    want: "allowed",
  },
  {
    name: "root in a user namespace from v1.35",
    id: "runAsUser",
    spec: { hostUsers: false, securityContext: { runAsUser: 0 } },
    want: "allowed",
  },
  // seLinuxOptions
  {
    name: "invalid pod and containers",
    id: "seLinuxOptions",
    spec: {
      securityContext: { seLinuxOptions: { type: "foo", user: "bar", role: "baz" } },
      containers: [
        sc("a", { seLinuxOptions: { type: "container_t" } }),
        sc("b", { seLinuxOptions: { type: "container_init_t" } }),
        sc("c", { seLinuxOptions: { type: "container_kvm_t" } }),
        sc("d", { seLinuxOptions: { type: "container_engine_t" } }),
        sc("e", { seLinuxOptions: { type: "bar" } }),
        sc("f", { seLinuxOptions: { user: "bar" } }),
        sc("g", { seLinuxOptions: { role: "baz" } }),
      ],
    },
    want: [
      "seLinuxOptions",
      'pod and containers "e", "f", "g" set forbidden securityContext.seLinuxOptions: types "bar", "foo"; user may not be set; role may not be set',
    ],
  },
  {
    name: "invalid containers",
    id: "seLinuxOptions",
    spec: {
      securityContext: { seLinuxOptions: {} },
      containers: [
        sc("e", { seLinuxOptions: { type: "bar" } }),
        sc("f", { seLinuxOptions: { user: "bar" } }),
        sc("g", { seLinuxOptions: { role: "baz" } }),
      ],
    },
    want: [
      "seLinuxOptions",
      'containers "e", "f", "g" set forbidden securityContext.seLinuxOptions: type "bar"; user may not be set; role may not be set',
    ],
  },
  {
    name: "a bad user only",
    id: "seLinuxOptions",
    spec: { securityContext: { seLinuxOptions: { user: "bad" } } },
    want: [
      "seLinuxOptions",
      "pod set forbidden securityContext.seLinuxOptions: user may not be set",
    ],
  },
  {
    name: "container_engine_t before v1.31",
    id: "seLinuxOptions",
    minor: 30,
    spec: { securityContext: { seLinuxOptions: { type: "container_engine_t" } } },
    want: [
      "seLinuxOptions",
      'pod set forbidden securityContext.seLinuxOptions: type "container_engine_t"',
    ],
  },
  // seccompProfile
  {
    name: "unconfined pod and containers",
    id: "seccompProfile_baseline",
    spec: {
      securityContext: { seccompProfile: { type: "Unconfined" } },
      containers: [
        { name: "a" },
        sc("b", { seccompProfile: { type: "Unconfined" } }),
        sc("c", { seccompProfile: { type: "RuntimeDefault" } }),
        sc("d", { seccompProfile: { type: "Unconfined" } }),
      ],
    },
    want: [
      "seccompProfile",
      'pod and containers "b", "d" must not set securityContext.seccompProfile.type to "Unconfined"',
    ],
  },
  {
    name: "no seccomp profile is fine for baseline",
    id: "seccompProfile_baseline",
    spec: { containers: [{ name: "a" }] },
    want: "allowed",
  },
  {
    name: "unconfined seccomp annotations before v1.19",
    id: "seccompProfile_baseline",
    minor: 18,
    spec: { containers: [{ name: "a" }, { name: "b" }] },
    metadata: {
      annotations: {
        "seccomp.security.alpha.kubernetes.io/pod": "unconfined",
        "container.seccomp.security.alpha.kubernetes.io/a": "runtime/default",
        "container.seccomp.security.alpha.kubernetes.io/b": "unconfined",
      },
    },
    want: [
      "seccompProfile",
      'forbidden annotations container.seccomp.security.alpha.kubernetes.io/b="unconfined", seccomp.security.alpha.kubernetes.io/pod="unconfined"',
    ],
  },
  {
    name: "no explicit seccomp",
    id: "seccompProfile_restricted",
    spec: { containers: [{ name: "a" }] },
    want: [
      "seccompProfile",
      'pod or container "a" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"',
    ],
  },
  {
    name: "pod seccomp invalid",
    id: "seccompProfile_restricted",
    spec: {
      securityContext: { seccompProfile: { type: "Unconfined" } },
      containers: [{ name: "a" }],
    },
    want: [
      "seccompProfile",
      'pod must not set securityContext.seccompProfile.type to "Unconfined"',
    ],
  },
  {
    name: "containers seccomp invalid",
    id: "seccompProfile_restricted",
    spec: {
      securityContext: { seccompProfile: { type: "RuntimeDefault" } },
      containers: [
        { name: "a" },
        sc("b", {}),
        sc("c", { seccompProfile: { type: "Unconfined" } }),
        sc("d", { seccompProfile: { type: "Unconfined" } }),
        sc("e", { seccompProfile: { type: "RuntimeDefault" } }),
      ],
    },
    want: [
      "seccompProfile",
      'containers "c", "d" must not set securityContext.seccompProfile.type to "Unconfined"',
    ],
  },
  {
    name: "pod nil, container fallthrough",
    id: "seccompProfile_restricted",
    spec: {
      containers: [
        { name: "a" },
        sc("b", {}),
        sc("d", { seccompProfile: { type: "RuntimeDefault" } }),
        sc("e", { seccompProfile: { type: "Localhost", localhostProfile: "p" } }),
      ],
    },
    want: [
      "seccompProfile",
      'pod or containers "a", "b" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"',
    ],
  },
  {
    name: "a windows pod needs no seccomp profile from v1.25",
    id: "seccompProfile_restricted",
    spec: { os: { name: "windows" }, containers: [{ name: "a" }] },
    want: "allowed",
  },
  // sysctls
  {
    name: "forbidden sysctls",
    id: "sysctls",
    spec: { securityContext: { sysctls: [{ name: "a" }, { name: "b" }] } },
    want: ["forbidden sysctls", "a, b"],
  },
  {
    name: "ip_local_reserved_ports before v1.27",
    id: "sysctls",
    minor: 26,
    spec: {
      securityContext: { sysctls: [{ name: "net.ipv4.ip_local_reserved_ports", value: "1" }] },
    },
    want: ["forbidden sysctls", "net.ipv4.ip_local_reserved_ports"],
  },
  {
    name: "ip_local_reserved_ports from v1.27",
    id: "sysctls",
    minor: 27,
    spec: {
      securityContext: { sysctls: [{ name: "net.ipv4.ip_local_reserved_ports", value: "1" }] },
    },
    want: "allowed",
  },
  {
    name: "tcp_rmem before v1.32",
    id: "sysctls",
    minor: 31,
    spec: {
      securityContext: {
        sysctls: [
          { name: "net.ipv4.tcp_keepalive_time", value: "1" },
          { name: "net.ipv4.tcp_rmem", value: "1" },
        ],
      },
    },
    want: ["forbidden sysctls", "net.ipv4.tcp_rmem"],
  },
  {
    name: "every safe sysctl at latest",
    id: "sysctls",
    spec: {
      securityContext: {
        sysctls: [
          "kernel.shm_rmid_forced",
          "net.ipv4.ip_local_port_range",
          "net.ipv4.tcp_syncookies",
          "net.ipv4.ping_group_range",
          "net.ipv4.ip_unprivileged_port_start",
          "net.ipv4.ip_local_reserved_ports",
          "net.ipv4.tcp_keepalive_time",
          "net.ipv4.tcp_fin_timeout",
          "net.ipv4.tcp_keepalive_intvl",
          "net.ipv4.tcp_keepalive_probes",
          "net.ipv4.tcp_rmem",
          "net.ipv4.tcp_wmem",
        ].map((name) => ({ name, value: "1" })),
      },
    },
    want: "allowed",
  },
  // windowsHostProcess
  {
    name: "host process pod and containers",
    id: "windowsHostProcess",
    spec: {
      securityContext: { windowsOptions: { hostProcess: true } },
      containers: [
        { name: "a" },
        sc("b", {}),
        sc("c", { windowsOptions: {} }),
        sc("d", { windowsOptions: { hostProcess: false } }),
        sc("e", { windowsOptions: { hostProcess: true } }),
        sc("f", { windowsOptions: { hostProcess: true } }),
      ],
    },
    want: [
      "hostProcess",
      'pod and containers "e", "f" must not set securityContext.windowsOptions.hostProcess=true',
    ],
  },
];

for (const c of cases) {
  test(`Check ${c.id}: ${c.name}`, () => {
    const result = run(c.id, c.minor ?? 35, c.spec ?? {}, c.metadata);
    const got: Want = result.allowed ? "allowed" : [result.reason, result.detail];
    assert.deepEqual(got, c.want);
  });
}

test("Check: ephemeral containers are checked like the others", () => {
  const result = run("privileged", 35, {
    containers: [{ name: "a" }],
    ephemeralContainers: [sc("debug", { privileged: true })],
  });
  assert.deepEqual(result, {
    allowed: false,
    reason: "privileged",
    detail: 'container "debug" must not set securityContext.privileged=true',
  });
});

test("Check: JSON nulls count as unset fields and never throw", () => {
  const spec = {
    securityContext: { appArmorProfile: null, seccompProfile: null, seLinuxOptions: null },
    containers: [
      sc("a", {
        capabilities: null,
        appArmorProfile: null,
        seccompProfile: null,
        seLinuxOptions: null,
        procMount: null,
      }),
    ],
    volumes: null,
  };
  for (const check of defaultChecks) {
    for (const v of check.versions) {
      assert.doesNotThrow(
        () => v.checkPod({}, { ...spec } as unknown as PodSpec),
        `${check.id} at v1.${v.minimumVersion}`,
      );
    }
  }
  assert.deepEqual(run("appArmorProfile", 35, spec), { allowed: true });
  assert.deepEqual(run("procMount", 35, spec), { allowed: true });
});
