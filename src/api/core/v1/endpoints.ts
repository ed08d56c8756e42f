/**
 * The core/v1 Endpoints kind: defaults and `ValidateEndpoints` /`ValidateEndpointsUpdate` from
 * upstream's pkg/apis/core (1.33).
 */
import { type FieldErrorList, invalid, required } from "../../meta/field-errors.ts";
import { type FieldPath, fieldPath } from "../../meta/field-path.ts";
import type { KubeObject } from "../../meta/types.ts";
import { allVerbs, type KindDefinition } from "../../scheme.ts";
import { isValidIp, validateNonSpecialIp } from "../../validation/ip.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../validation/meta.ts";
import {
  isDns1123Label,
  isDns1123Subdomain,
  isQualifiedName,
  isValidPortNum,
} from "../../validation/names.ts";
import { validateProtocol } from "./container-validation.ts";
import type { ObjectReference } from "./event.ts";
import { coreSchemaRoot } from "./kind-helpers.ts";
import type { Protocol } from "./pod-template.ts";

export interface EndpointAddress {
  ip: string;
  hostname?: string;
  nodeName?: string;
  targetRef?: ObjectReference;
}

export interface EndpointPort {
  name?: string;
  port: number;
  protocol?: Protocol;
  appProtocol?: string;
}

export interface EndpointSubset {
  addresses?: EndpointAddress[];
  notReadyAddresses?: EndpointAddress[];
  ports?: EndpointPort[];
}

export interface Endpoints extends KubeObject {
  subsets?: EndpointSubset[];
}

/** `SetDefaults_Endpoints`: a port without a protocol is TCP. */
export function applyEndpointsDefaults(endpoints: Endpoints): void {
  for (const subset of endpoints.subsets ?? []) {
    for (const port of subset.ports ?? []) {
      if ((port.protocol ?? "") === "") port.protocol = "TCP";
    }
  }
}

function validateEndpointAddress(address: EndpointAddress, path: FieldPath): FieldErrorList {
  const ip = address.ip ?? "";
  const errs = isValidIp(path.child("ip"), ip);
  const hostname = address.hostname ?? "";
  if (hostname !== "") {
    for (const msg of isDns1123Label(hostname)) {
      errs.push(invalid(path.child("hostname"), hostname, msg));
    }
  }
  if (address.nodeName !== undefined) {
    for (const msg of isDns1123Subdomain(address.nodeName)) {
      errs.push(invalid(path.child("nodeName"), address.nodeName, msg));
    }
  }
  errs.push(...validateNonSpecialIp(ip, path.child("ip")));
  return errs;
}

function validateEndpointPort(
  port: EndpointPort,
  requireName: boolean,
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  const name = port.name ?? "";
  if (requireName && name === "") {
    errs.push(required(path.child("name")));
  } else if (name !== "") {
    for (const msg of isDns1123Label(name)) errs.push(invalid(path.child("name"), name, msg));
  }
  for (const msg of isValidPortNum(port.port ?? 0)) {
    errs.push(invalid(path.child("port"), port.port ?? 0, msg));
  }
  errs.push(...validateProtocol(port.protocol, path.child("protocol")));
  if (port.appProtocol !== undefined) {
    for (const msg of isQualifiedName(port.appProtocol)) {
      errs.push(invalid(path.child("appProtocol"), port.appProtocol, msg));
    }
  }
  return errs;
}

function validateEndpointSubsets(
  subsets: readonly EndpointSubset[],
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  subsets.forEach((subset, i) => {
    const at = path.index(i);
    const addresses = subset.addresses ?? [];
    const notReady = subset.notReadyAddresses ?? [];
    if (addresses.length === 0 && notReady.length === 0) {
      errs.push(required(at, "must specify `addresses` or `notReadyAddresses`"));
    }
    addresses.forEach((a, j) => {
      errs.push(...validateEndpointAddress(a, at.child("addresses").index(j)));
    });
    notReady.forEach((a, j) => {
      errs.push(...validateEndpointAddress(a, at.child("notReadyAddresses").index(j)));
    });
    const ports = subset.ports ?? [];
    ports.forEach((p, j) => {
      errs.push(...validateEndpointPort(p, ports.length > 1, at.child("ports").index(j)));
    });
  });
  return errs;
}

/** `ValidateEndpoints`: a DNS-subdomain name, and every subset's addresses and ports. */
export function validateEndpoints(endpoints: Endpoints): FieldErrorList {
  const errs = validateObjectMeta(endpoints.metadata, { namespaced: true }, fieldPath("metadata"));
  errs.push(...validateEndpointSubsets(endpoints.subsets ?? [], fieldPath("subsets")));
  return errs;
}

/** `ValidateEndpointsUpdate`: metadata rules, then the new object as on create. */
export function validateEndpointsUpdate(endpoints: Endpoints, old: Endpoints): FieldErrorList {
  const errs = validateObjectMetaUpdate(endpoints.metadata, old.metadata, fieldPath("metadata"));
  errs.push(...validateEndpoints(endpoints));
  return errs;
}

export const endpointsKind: KindDefinition<Endpoints> = {
  group: "",
  version: "v1",
  kind: "Endpoints",
  listKind: "EndpointsList",
  resource: "endpoints",
  singular: "endpoints",
  namespaced: true,
  shortNames: ["ep"],
  categories: [],
  verbs: allVerbs,
  schema: coreSchemaRoot("Endpoints"),
  tracksGeneration: false,
  subresources: { status: false },
  applyDefaults: applyEndpointsDefaults,
  validate: validateEndpoints,
  validateUpdate: validateEndpointsUpdate,
};
