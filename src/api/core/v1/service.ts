/** The Service kind. */
import {
  duplicate,
  type FieldErrorList,
  forbiddenField,
  invalid,
  notSupported,
  required,
} from "../../meta/field-errors.ts";
import { FieldPath } from "../../meta/field-path.ts";
import type { KubeObject } from "../../meta/types.ts";
import { allVerbs, type KindDefinition } from "../../scheme.ts";
import {
  validateLabels,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from "../../validation/meta.ts";
import {
  isDns1035Label,
  isDns1123Label,
  isValidPortName,
  isValidPortNum,
} from "../../validation/names.ts";
import { validateProtocol } from "./container-validation.ts";
import { coreSchemaRoot } from "./kind-helpers.ts";
import type { IntOrString, Protocol } from "./pod-template.ts";

export interface ServicePort {
  name?: string;
  protocol?: Protocol;
  appProtocol?: string;
  port: number;
  targetPort?: IntOrString;
  nodePort?: number;
}

export type ServiceType = "ClusterIP" | "NodePort" | "LoadBalancer" | "ExternalName";

export interface ServiceSpec {
  ports?: ServicePort[];
  selector?: Record<string, string>;
  clusterIP?: string;
  clusterIPs?: string[];
  type?: ServiceType;
  externalIPs?: string[];
  sessionAffinity?: "ClientIP" | "None";
  loadBalancerIP?: string;
  loadBalancerSourceRanges?: string[];
  externalName?: string;
  externalTrafficPolicy?: "Cluster" | "Local";
  healthCheckNodePort?: number;
  publishNotReadyAddresses?: boolean;
  sessionAffinityConfig?: { clientIP?: { timeoutSeconds?: number } };
  ipFamilies?: ("IPv4" | "IPv6")[];
  ipFamilyPolicy?: "SingleStack" | "PreferDualStack" | "RequireDualStack";
  allocateLoadBalancerNodePorts?: boolean;
  loadBalancerClass?: string;
  internalTrafficPolicy?: "Cluster" | "Local";
  trafficDistribution?: string;
}

export interface Service extends KubeObject {
  spec?: ServiceSpec;
  status?: { loadBalancer?: Record<string, unknown>; conditions?: Record<string, unknown>[] };
}

/** `SetDefaults_Service`. */
export function applyServiceDefaults(svc: Service): void {
  svc.spec ??= {};
  const spec = svc.spec;
  if ((spec.sessionAffinity ?? "") === "") spec.sessionAffinity = "None";
  if (spec.sessionAffinity === "ClientIP") {
    spec.sessionAffinityConfig ??= {};
    spec.sessionAffinityConfig.clientIP ??= {};
    spec.sessionAffinityConfig.clientIP.timeoutSeconds ??= 10800;
  }
  if ((spec.type ?? "") === "") spec.type = "ClusterIP";
  for (const port of spec.ports ?? []) {
    if ((port.protocol ?? "") === "") port.protocol = "TCP";
    if (port.targetPort === undefined || port.targetPort === 0 || port.targetPort === "") {
      port.targetPort = port.port;
    }
  }
  if (
    (spec.type === "NodePort" || spec.type === "LoadBalancer") &&
    (spec.externalTrafficPolicy ?? "") === ""
  ) {
    spec.externalTrafficPolicy = "Cluster";
  }
  if (spec.type !== "ExternalName" && (spec.internalTrafficPolicy ?? "") === "") {
    spec.internalTrafficPolicy = "Cluster";
  }
  if (spec.type === "LoadBalancer") spec.allocateLoadBalancerNodePorts ??= true;
  svc.status ??= { loadBalancer: {} };
}

function isHeadless(spec: ServiceSpec): boolean {
  return spec.clusterIP === "None" || spec.clusterIPs?.[0] === "None";
}

function validatePortNumOrName(port: IntOrString | undefined, path: FieldPath): FieldErrorList {
  if (typeof port === "number") return isValidPortNum(port).map((msg) => invalid(path, port, msg));
  if (typeof port === "string") return isValidPortName(port).map((msg) => invalid(path, port, msg));
  return [];
}

/** `ValidateService` (the parts gantry serves: ports, selector, type, session affinity). */
export function validateService(svc: Service): FieldErrorList {
  const errs = validateObjectMeta(
    svc.metadata,
    { namespaced: true, nameValidator: isDns1035Label },
    FieldPath.of("metadata"),
  );
  const spec = svc.spec ?? {};
  const specPath = FieldPath.of("spec");
  const portsPath = specPath.child("ports");
  const ports = spec.ports ?? [];
  if (ports.length === 0 && !isHeadless(spec) && spec.type !== "ExternalName")
    errs.push(required(portsPath));
  if (spec.type === "ExternalName") {
    const cname = (spec.externalName ?? "").replace(/\.$/, "");
    if (cname === "") errs.push(required(specPath.child("externalName")));
  }
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const p = portsPath.index(i);
    const name = port.name ?? "";
    if (ports.length > 1 && name === "") {
      errs.push(required(p.child("name")));
    } else if (name !== "") {
      for (const msg of isDns1123Label(name)) errs.push(invalid(p.child("name"), name, msg));
      if (names.has(name)) errs.push(duplicate(p.child("name"), name));
      else names.add(name);
    }
    for (const msg of isValidPortNum(port.port))
      errs.push(invalid(p.child("port"), port.port, msg));
    errs.push(...validateProtocol(port.protocol, p.child("protocol")));
    errs.push(...validatePortNumOrName(port.targetPort, p.child("targetPort")));
  });
  errs.push(...validateLabels(spec.selector, specPath.child("selector")));
  const affinity = spec.sessionAffinity ?? "";
  if (affinity === "") errs.push(required(specPath.child("sessionAffinity")));
  else if (affinity !== "ClientIP" && affinity !== "None") {
    errs.push(notSupported(specPath.child("sessionAffinity"), affinity, ["ClientIP", "None"]));
  }
  const types = ["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"];
  if ((spec.type ?? "") === "") errs.push(required(specPath.child("type")));
  else if (!types.includes(spec.type ?? ""))
    errs.push(notSupported(specPath.child("type"), spec.type, types));
  if (spec.type === "ClusterIP") {
    ports.forEach((port, i) => {
      if ((port.nodePort ?? 0) !== 0) {
        errs.push(
          forbiddenField(
            portsPath.index(i).child("nodePort"),
            "may not be used when `type` is 'ClusterIP'",
          ),
        );
      }
    });
  }
  const seen = new Set<string>();
  ports.forEach((port, i) => {
    const key = `${port.protocol ?? ""}/${port.port}`;
    if (seen.has(key))
      errs.push(duplicate(portsPath.index(i), { port: port.port, protocol: port.protocol ?? "" }));
    seen.add(key);
  });
  return errs;
}

/** `ValidateServiceUpdate`: a set cluster IP may not change (except to or from ExternalName). */
export function validateServiceUpdate(svc: Service, old: Service): FieldErrorList {
  const errs = validateObjectMetaUpdate(svc.metadata, old.metadata, FieldPath.of("metadata"));
  const oldIp = old.spec?.clusterIP ?? "";
  const newIp = svc.spec?.clusterIP ?? "";
  const typeSwitch = old.spec?.type === "ExternalName" || svc.spec?.type === "ExternalName";
  if (oldIp !== "" && newIp !== oldIp && !typeSwitch) {
    errs.push(
      invalid(FieldPath.of("spec", "clusterIPs").index(0), newIp, "may not change once set"),
    );
  }
  errs.push(...validateService(svc).filter((e) => !e.field.startsWith("metadata")));
  return errs;
}

export const serviceKind: KindDefinition<Service> = {
  group: "",
  version: "v1",
  kind: "Service",
  listKind: "ServiceList",
  resource: "services",
  singular: "service",
  namespaced: true,
  shortNames: ["svc"],
  categories: ["all"],
  verbs: allVerbs,
  schema: coreSchemaRoot("Service"),
  tracksGeneration: false,
  subresources: { status: true },
  applyDefaults: applyServiceDefaults,
  validate: validateService,
  validateUpdate: validateServiceUpdate,
};
