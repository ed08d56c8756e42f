/** Wire types of `discovery.k8s.io/v1` EndpointSlice, mirroring the JSON exactly. */
import type { ObjectReference } from "../../core/v1/event.ts";
import type { Protocol } from "../../core/v1/pod-template.ts";
import type { KubeObject } from "../../meta/types.ts";

/** `IPv4`, `IPv6` or `FQDN` (`IP`, deprecated, is accepted on update only). */
export type AddressType = "IPv4" | "IPv6" | "FQDN";

export interface EndpointConditions {
  ready?: boolean;
  serving?: boolean;
  terminating?: boolean;
}

export interface EndpointHints {
  forZones?: { name: string }[];
  forNodes?: { name: string }[];
}

export interface Endpoint {
  addresses: string[];
  conditions?: EndpointConditions;
  hostname?: string;
  targetRef?: ObjectReference;
  deprecatedTopology?: Record<string, string>;
  nodeName?: string;
  zone?: string;
  hints?: EndpointHints;
}

export interface EndpointSlicePort {
  name?: string;
  protocol?: Protocol;
  port?: number;
  appProtocol?: string;
}

export interface EndpointSlice extends KubeObject {
  addressType: AddressType;
  endpoints: Endpoint[] | null;
  ports?: EndpointSlicePort[] | null;
}

/** `discovery.LabelServiceName`: the Service a slice belongs to. */
export const serviceNameLabel = "kubernetes.io/service-name";

/** `discovery.LabelManagedBy`: the controller or user that manages a slice. */
export const managedByLabel = "endpointslice.kubernetes.io/managed-by";
