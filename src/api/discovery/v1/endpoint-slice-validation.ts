/**
 * EndpointSlice validation: upstream's pkg/apis/discovery/validation (1.33), with its limits
 * (1000 endpoints, 100 addresses per endpoint, 100 ports, 16 topology labels, 8 zone hints).
 */
import { tooManyItems as tooMany } from "../../apps/v1/validation-helpers.ts";
import { validateProtocol } from "../../core/v1/container-validation.ts";
import {
  duplicate,
  type FieldErrorList,
  internalError,
  invalid,
  notSupported,
  required,
} from "../../meta/field-errors.ts";
import { type FieldPath, fieldPath } from "../../meta/field-path.ts";
import {
  isFullyQualifiedDomainName,
  isValidIp,
  isValidIpv4Address,
  isValidIpv6Address,
  validateNonSpecialIp,
} from "../../validation/ip.ts";
import {
  validateImmutableField,
  validateLabels,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from "../../validation/meta.ts";
import {
  isDns1123Label,
  isDns1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
} from "../../validation/names.ts";
import type {
  Endpoint,
  EndpointHints,
  EndpointSlice,
  EndpointSlicePort,
} from "./endpoint-slice.ts";

const supportedAddressTypes = ["FQDN", "IPv4", "IPv6"];
/** `AddressTypeIP`: still accepted on update of an old slice. */
const deprecatedAddressTypes = ["IP"];
const maxTopologyLabels = 16;
const maxAddresses = 100;
const maxPorts = 100;
/** The most endpoints one slice may hold. */
export const maxEndpointsPerSlice = 1000;
const maxZoneHints = 8;
const zoneLabel = "topology.kubernetes.io/zone";

function validateAddress(address: string, type: string, path: FieldPath): FieldErrorList {
  // Known address types are checked; an unknown type falls through unchecked, as upstream.
  switch (type) {
    case "IP":
      return isValidIp(path, address);
    case "IPv4": {
      const errs = isValidIpv4Address(path, address);
      return errs.length > 0 ? errs : validateNonSpecialIp(address, path);
    }
    case "IPv6": {
      const errs = isValidIpv6Address(path, address);
      return errs.length > 0 ? errs : validateNonSpecialIp(address, path);
    }
    case "FQDN":
      return isFullyQualifiedDomainName(path, address);
    default:
      return [];
  }
}

function validateHints(hints: EndpointHints, path: FieldPath): FieldErrorList {
  const forZones = hints.forZones ?? [];
  const zonesPath = path.child("forZones");
  if (forZones.length > maxZoneHints) return [tooMany(zonesPath, forZones.length, maxZoneHints)];
  const errs: FieldErrorList = [];
  const seen = new Set<string>();
  forZones.forEach((zone, i) => {
    const at = zonesPath.index(i).child("name");
    const name = zone.name ?? "";
    if (seen.has(name)) errs.push(duplicate(at, name));
    else seen.add(name);
    for (const msg of isValidLabelValue(name)) errs.push(invalid(at, name, msg));
  });
  return errs;
}

function validateEndpoint(endpoint: Endpoint, type: string, path: FieldPath): FieldErrorList {
  const errs: FieldErrorList = [];
  const addresses = endpoint.addresses ?? [];
  const addressPath = path.child("addresses");
  if (addresses.length === 0) {
    errs.push(required(addressPath, "must contain at least 1 address"));
  } else if (addresses.length > maxAddresses) {
    errs.push(tooMany(addressPath, addresses.length, maxAddresses));
  }
  addresses.forEach((address, i) => {
    errs.push(...validateAddress(address, type, addressPath.index(i)));
  });
  if (endpoint.nodeName !== undefined) {
    for (const msg of isDns1123Subdomain(endpoint.nodeName)) {
      errs.push(invalid(path.child("nodeName"), endpoint.nodeName, msg));
    }
  }
  const topologyPath = path.child("deprecatedTopology");
  const topology = endpoint.deprecatedTopology ?? {};
  const topologySize = Object.keys(topology).length;
  if (topologySize > maxTopologyLabels) {
    errs.push(tooMany(topologyPath, topologySize, maxTopologyLabels));
  }
  errs.push(...validateLabels(topology, topologyPath));
  if (topology[zoneLabel] !== undefined) {
    errs.push(
      internalError(topologyPath.key(zoneLabel), "reserved key was not removed in conversion"),
    );
  }
  if (endpoint.hostname !== undefined) {
    for (const msg of isDns1123Label(endpoint.hostname)) {
      errs.push(invalid(path.child("hostname"), endpoint.hostname, msg));
    }
  }
  if (endpoint.hints !== undefined)
    errs.push(...validateHints(endpoint.hints, path.child("hints")));
  return errs;
}

function validatePorts(ports: readonly EndpointSlicePort[], path: FieldPath): FieldErrorList {
  if (ports.length > maxPorts) return [tooMany(path, ports.length, maxPorts)];
  const errs: FieldErrorList = [];
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const at = path.index(i);
    const name = port.name ?? "";
    if (name !== "") {
      for (const msg of isDns1123Label(name)) errs.push(invalid(at.child("name"), name, msg));
    }
    if (names.has(name)) errs.push(duplicate(at.child("name"), name));
    else names.add(name);
    if (port.protocol === undefined) errs.push(required(at.child("protocol")));
    else errs.push(...validateProtocol(port.protocol, at.child("protocol")));
    if (port.appProtocol !== undefined) {
      for (const msg of isQualifiedName(port.appProtocol)) {
        errs.push(invalid(at.child("appProtocol"), port.appProtocol, msg));
      }
    }
  });
  return errs;
}

function validateAddressType(type: string, valid: readonly string[]): FieldErrorList {
  const path = fieldPath("addressType");
  if (type === "") return [required(path)];
  return valid.includes(type) ? [] : [notSupported(path, type, valid)];
}

function validateSlice(slice: EndpointSlice, validTypes: readonly string[]): FieldErrorList {
  const errs = validateObjectMeta(slice.metadata, { namespaced: true }, fieldPath("metadata"));
  const type = (slice.addressType as string | undefined) ?? "";
  errs.push(...validateAddressType(type, validTypes));
  const endpoints = slice.endpoints ?? [];
  const endpointsPath = fieldPath("endpoints");
  if (endpoints.length > maxEndpointsPerSlice) {
    errs.push(tooMany(endpointsPath, endpoints.length, maxEndpointsPerSlice));
  } else {
    endpoints.forEach((endpoint, i) => {
      errs.push(...validateEndpoint(endpoint, type, endpointsPath.index(i)));
    });
  }
  errs.push(...validatePorts(slice.ports ?? [], fieldPath("ports")));
  return errs;
}

/** `ValidateEndpointSliceCreate`. */
export function validateEndpointSlice(slice: EndpointSlice): FieldErrorList {
  return validateSlice(slice, supportedAddressTypes);
}

/** `ValidateEndpointSliceUpdate`: the deprecated `IP` type is allowed, `addressType` is immutable. */
export function validateEndpointSliceUpdate(
  slice: EndpointSlice,
  old: EndpointSlice,
): FieldErrorList {
  const errs = validateObjectMetaUpdate(slice.metadata, old.metadata, fieldPath("metadata"));
  errs.push(...validateSlice(slice, [...deprecatedAddressTypes, ...supportedAddressTypes].sort()));
  errs.push(
    ...validateImmutableField(slice.addressType, old.addressType, fieldPath("addressType")),
  );
  return errs;
}
