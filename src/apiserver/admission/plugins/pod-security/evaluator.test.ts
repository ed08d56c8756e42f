import assert from "node:assert/strict";
import { test } from "node:test";
import type { PodSpec } from "../../../../api/index.ts";
import { forbiddenDetail, forbiddenReason, newEvaluator } from "./evaluator.ts";
import { type Level, latest, minorVersion, type Version } from "./levels.ts";

const evaluator = newEvaluator();

function detail(level: Level, version: Version, spec: object): string {
  const result = evaluator.evaluate({ level, version }, {}, { containers: [], ...spec } as PodSpec);
  return result.allowed ? "allowed" : forbiddenDetail(result);
}

const bare = { containers: [{ name: "c", image: "nginx" }] };
const compliant = {
  securityContext: { runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } },
  containers: [
    {
      name: "c",
      image: "nginx",
      securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } },
    },
  ],
};

const cases = [
  {
    name: "a bare pod under restricted:latest gets the four restricted reasons in ID order",
    level: "restricted",
    version: latest,
    spec: bare,
    want: 'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
  },
  {
    name: "a compliant pod passes restricted:latest",
    level: "restricted",
    version: latest,
    spec: compliant,
    want: "allowed",
  },
  {
    name: "a bare pod passes baseline",
    level: "baseline",
    version: latest,
    spec: bare,
    want: "allowed",
  },
  {
    name: "privileged allows anything",
    level: "privileged",
    version: latest,
    spec: { hostNetwork: true, containers: [{ name: "c", securityContext: { privileged: true } }] },
    want: "allowed",
  },
  {
    name: "baseline reasons come before restricted ones",
    level: "restricted",
    version: latest,
    spec: {
      ...compliant,
      hostPID: true,
      containers: [
        {
          name: "c",
          securityContext: {
            privileged: true,
            allowPrivilegeEscalation: true,
            capabilities: { drop: ["ALL"] },
          },
        },
      ],
    },
    want: 'host namespaces (hostPID=true), privileged (container "c" must not set securityContext.privileged=true), allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false)',
  },
  {
    name: "restrictedVolumes replaces hostPathVolumes at restricted",
    level: "restricted",
    version: latest,
    spec: { ...compliant, volumes: [{ name: "h", hostPath: { path: "/" } }] },
    want: 'restricted volume types (volume "h" uses restricted volume type "hostPath")',
  },
  {
    name: "hostPathVolumes applies at baseline",
    level: "baseline",
    version: latest,
    spec: { ...compliant, volumes: [{ name: "h", hostPath: { path: "/" } }] },
    want: 'hostPath volumes (volume "h")',
  },
  {
    name: "capabilities_restricted replaces capabilities_baseline from v1.22",
    level: "restricted",
    version: minorVersion(22),
    spec: {
      ...compliant,
      containers: [
        {
          name: "c",
          securityContext: {
            allowPrivilegeEscalation: false,
            capabilities: { add: ["NET_ADMIN"], drop: ["ALL"] },
          },
        },
      ],
    },
    want: 'unrestricted capabilities (container "c" must not include "NET_ADMIN" in securityContext.capabilities.add)',
  },
  {
    name: "before v1.22 restricted still checks added capabilities the baseline way",
    level: "restricted",
    version: minorVersion(21),
    spec: {
      ...compliant,
      containers: [
        {
          name: "c",
          securityContext: {
            allowPrivilegeEscalation: false,
            capabilities: { add: ["NET_ADMIN"] },
          },
        },
      ],
    },
    want: 'non-default capabilities (container "c" must not include "NET_ADMIN" in securityContext.capabilities.add)',
  },
  {
    name: "allowPrivilegeEscalation and runAsUser do not exist at v1.0",
    level: "restricted",
    version: minorVersion(0),
    spec: {
      securityContext: { runAsNonRoot: true, runAsUser: 0 },
      containers: [{ name: "c" }],
    },
    want: "allowed",
  },
  {
    name: "a version newer than any check means the newest policy",
    level: "baseline",
    version: minorVersion(99),
    spec: { containers: [{ name: "c", livenessProbe: { httpGet: { host: "x", port: 1 } } }] },
    want: 'probe or lifecycle host (container "c" uses probe or lifecycle host "x")',
  },
  {
    name: "the probe host check starts at v1.34",
    level: "baseline",
    version: minorVersion(33),
    spec: { containers: [{ name: "c", livenessProbe: { httpGet: { host: "x", port: 1 } } }] },
    want: "allowed",
  },
  {
    name: "restricted keeps forbidding unmasked /proc in user namespaces at v1.35",
    level: "restricted",
    version: latest,
    spec: {
      ...compliant,
      hostUsers: false,
      securityContext: { seccompProfile: { type: "RuntimeDefault" } },
      containers: [
        {
          name: "c",
          securityContext: {
            allowPrivilegeEscalation: false,
            capabilities: { drop: ["ALL"] },
            procMount: "Unmasked",
          },
        },
      ],
    },
    want: 'procMount (container "c" must not set securityContext.procMount to "Unmasked")',
  },
] as const;

for (const c of cases) {
  test(`Evaluator.evaluate: ${c.name}`, () => {
    assert.equal(detail(c.level, c.version, c.spec), c.want);
  });
}

test("Evaluator: latest is v1.35, the newest version any check defines", () => {
  assert.equal(evaluator.maxVersion, 35);
});

test("Evaluator: forbiddenReason lists the reasons alone", () => {
  const result = evaluator.evaluate({ level: "restricted", version: latest }, {}, bare as PodSpec);
  assert.equal(
    forbiddenReason(result),
    "allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile",
  );
});
