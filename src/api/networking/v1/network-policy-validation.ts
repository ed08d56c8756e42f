/**
 * NetworkPolicy validation: upstream's `ValidateNetworkPolicy` and `ValidateNetworkPolicyUpdate`
 * (pkg/apis/networking/validation, 1.33), with StrictIPCIDRValidation off as 1.33 ships it.
 */
import { invalidRaw } from "../../apps/v1/validation-helpers.ts";
import {
  type FieldErrorList,
  forbiddenField,
  invalid,
  notSupported,
  required,
} from "../../meta/field-errors.ts";
import { type FieldPath, fieldPath } from "../../meta/field-path.ts";
import { cidrContains, isValidCidr, parseCidrSloppy } from "../../validation/ip.ts";
import {
  validateLabelSelector,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from "../../validation/meta.ts";
import { isValidPortName, isValidPortNum } from "../../validation/names.ts";
import type {
  IpBlock,
  NetworkPolicy,
  NetworkPolicyPeer,
  NetworkPolicyPort,
} from "./network-policy.ts";

const protocols = ["TCP", "UDP", "SCTP"];
const policyTypes = ["Ingress", "Egress"];

/** `ValidateNetworkPolicyPort`: protocol, a port number or name, and `endPort` with a number. */
function validatePort(port: NetworkPolicyPort, path: FieldPath): FieldErrorList {
  const errs: FieldErrorList = [];
  if (port.protocol !== undefined && port.protocol !== null && !protocols.includes(port.protocol)) {
    errs.push(notSupported(path.child("protocol"), port.protocol, protocols));
  }
  const endPort = port.endPort ?? undefined;
  if (port.port === undefined || port.port === null) {
    if (endPort !== undefined) {
      errs.push(
        invalid(
          path.child("endPort"),
          endPort,
          "may not be specified when `port` is not specified",
        ),
      );
    }
  } else if (typeof port.port === "number") {
    for (const msg of isValidPortNum(port.port)) {
      errs.push(invalid(path.child("port"), port.port, msg));
    }
    if (endPort !== undefined) {
      if (endPort < port.port) {
        errs.push(
          invalid(path.child("endPort"), endPort, "must be greater than or equal to `port`"),
        );
      }
      for (const msg of isValidPortNum(endPort)) {
        errs.push(invalid(path.child("endPort"), endPort, msg));
      }
    }
  } else {
    if (endPort !== undefined) {
      errs.push(
        invalid(path.child("endPort"), endPort, "may not be specified when `port` is non-numeric"),
      );
    }
    for (const msg of isValidPortName(port.port)) {
      errs.push(invalid(path.child("port"), port.port, msg));
    }
  }
  return errs;
}

/**
 * `ValidateIPBlock`: a CIDR, and each `except` a strict subset of it. CIDRs the stored policy
 * already had are accepted as they are (they pass the same sloppy parse anyway in 1.33).
 */
function validateIpBlock(block: IpBlock, path: FieldPath): FieldErrorList {
  const cidrText = block.cidr ?? "";
  if (cidrText === "") return [required(path.child("cidr"))];
  const errs = isValidCidr(path.child("cidr"), cidrText);
  const cidr = parseCidrSloppy(cidrText);
  if (cidr === undefined) return errs;
  (block.except ?? []).forEach((text, i) => {
    const at = path.child("except").index(i);
    errs.push(...isValidCidr(at, text));
    const except = parseCidrSloppy(text);
    if (except === undefined) return;
    if (!cidrContains(cidr, except.network) || cidr.prefixLength >= except.prefixLength) {
      errs.push(invalid(at, text, "must be a strict subset of `cidr`"));
    }
  });
  return errs;
}

/** `ValidateNetworkPolicyPeer`: at least one selector or an ipBlock, an ipBlock alone. */
function validatePeer(peer: NetworkPolicyPeer, path: FieldPath): FieldErrorList {
  const errs: FieldErrorList = [];
  let peers = 0;
  if (peer.podSelector !== undefined && peer.podSelector !== null) {
    peers++;
    errs.push(...validateLabelSelector(peer.podSelector, path.child("podSelector")));
  }
  if (peer.namespaceSelector !== undefined && peer.namespaceSelector !== null) {
    peers++;
    errs.push(...validateLabelSelector(peer.namespaceSelector, path.child("namespaceSelector")));
  }
  const hasIpBlock = peer.ipBlock !== undefined && peer.ipBlock !== null;
  if (hasIpBlock) {
    peers++;
    errs.push(...validateIpBlock(peer.ipBlock as IpBlock, path.child("ipBlock")));
  }
  if (peers === 0) errs.push(required(path, "must specify a peer"));
  else if (peers > 1 && hasIpBlock) {
    errs.push(forbiddenField(path, "may not specify both ipBlock and another peer"));
  }
  return errs;
}

/** Go's `%#v` of the (dereferenced) `&spec.PolicyTypes`, as the too-many error prints it. */
function goPolicyTypes(types: readonly string[]): string {
  return `[]networking.PolicyType{${types.map((t) => JSON.stringify(t)).join(", ")}}`;
}

/** `ValidateNetworkPolicySpec`. */
function validateSpec(policy: NetworkPolicy): FieldErrorList {
  const path = fieldPath("spec");
  const spec = policy.spec ?? {};
  const errs = validateLabelSelector(spec.podSelector ?? undefined, path.child("podSelector"));
  (spec.ingress ?? []).forEach((rule, i) => {
    const at = path.child("ingress").index(i);
    (rule?.ports ?? []).forEach((port, j) => {
      errs.push(...validatePort(port ?? {}, at.child("ports").index(j)));
    });
    (rule?.from ?? []).forEach((peer, j) => {
      errs.push(...validatePeer(peer ?? {}, at.child("from").index(j)));
    });
  });
  (spec.egress ?? []).forEach((rule, i) => {
    const at = path.child("egress").index(i);
    (rule?.ports ?? []).forEach((port, j) => {
      errs.push(...validatePort(port ?? {}, at.child("ports").index(j)));
    });
    (rule?.to ?? []).forEach((peer, j) => {
      errs.push(...validatePeer(peer ?? {}, at.child("to").index(j)));
    });
  });
  const types = spec.policyTypes ?? [];
  if (types.length > policyTypes.length) {
    errs.push(
      invalidRaw(
        path.child("policyTypes"),
        goPolicyTypes(types),
        "may not specify more than two policyTypes",
      ),
    );
    return errs;
  }
  types.forEach((type, i) => {
    if (!policyTypes.includes(type)) {
      errs.push(notSupported(path.child("policyTypes").index(i), type, policyTypes));
    }
  });
  return errs;
}

/** `ValidateNetworkPolicy`. */
export function validateNetworkPolicy(policy: NetworkPolicy): FieldErrorList {
  const errs = validateObjectMeta(policy.metadata, { namespaced: true }, fieldPath("metadata"));
  errs.push(...validateSpec(policy));
  return errs;
}

/** `ValidateNetworkPolicyUpdate`: metadata rules, then the new spec. */
export function validateNetworkPolicyUpdate(
  policy: NetworkPolicy,
  old: NetworkPolicy,
): FieldErrorList {
  const errs = validateObjectMetaUpdate(policy.metadata, old.metadata, fieldPath("metadata"));
  errs.push(...validateSpec(policy));
  return errs;
}
