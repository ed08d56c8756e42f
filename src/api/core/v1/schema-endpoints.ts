/** Named schemas of core/v1 Endpoints. */
import { atomicList, int32, obj, str } from "../../schema/builders.ts";
import type { Definitions, Schema } from "../../schema/schema.ts";
import { kindSchema, listSchema } from "./schema-kind.ts";
import { core, coreName } from "./schema-pod-template.ts";

/** A `+structType=atomic` object: replaced whole by apply. */
function atomicObject(schema: Schema): Schema {
  return { ...schema, "x-kubernetes-map-type": "atomic" };
}

export const endpointsDefinitions: Definitions = {
  [coreName("Endpoints")]: kindSchema(
    "Endpoints",
    "Endpoints is a collection of endpoints that implement the actual service. Endpoints is a legacy API and does not contain information about all Service features. Use discoveryv1.EndpointSlice for complete information about Service endpoints. Deprecated: This API is deprecated in v1.33+. Use discoveryv1.EndpointSlice.",
    {
      subsets: atomicList(
        core("EndpointSubset"),
        "The set of all endpoints is the union of all subsets. Addresses are placed into subsets according to the IPs they share. A single address with multiple ports, some of which are ready and some of which are not (because they come from different containers) will result in the address being displayed in different subsets for the different ports. No address will appear in both Addresses and NotReadyAddresses in the same subset. Sets of addresses and ports that comprise a service.",
      ),
    },
  ),
  [coreName("EndpointsList")]: listSchema("Endpoints", core("Endpoints")),
  [coreName("EndpointSubset")]: obj(
    {
      addresses: atomicList(
        core("EndpointAddress"),
        "IP addresses which offer the related ports that are marked as ready. These endpoints should be considered safe for load balancers and clients to utilize.",
      ),
      notReadyAddresses: atomicList(
        core("EndpointAddress"),
        "IP addresses which offer the related ports but are not currently marked as ready because they have not yet finished starting, have recently failed a readiness check, or have recently failed a liveness check.",
      ),
      ports: atomicList(
        core("EndpointPort"),
        "Port numbers available on the related IP addresses.",
      ),
    },
    {
      description:
        "EndpointSubset is a group of addresses with a common set of ports. The expanded set of endpoints is the Cartesian product of Addresses x Ports.",
    },
  ),
  [coreName("EndpointAddress")]: atomicObject(
    obj(
      {
        ip: str(
          "The IP of this endpoint. May not be loopback (127.0.0.0/8 or ::1), link-local (169.254.0.0/16 or fe80::/10), or link-local multicast (224.0.0.0/24 or ff02::/16).",
        ),
        hostname: str("The Hostname of this endpoint"),
        nodeName: str(
          "Optional: Node hosting this endpoint. This can be used to determine endpoints local to a node.",
        ),
        targetRef: core("ObjectReference", "Reference to object providing the endpoint."),
      },
      {
        description: "EndpointAddress is a tuple that describes single IP address.",
        required: ["ip"],
      },
    ),
  ),
  [coreName("EndpointPort")]: atomicObject(
    obj(
      {
        name: str(
          "The name of this port.  This must match the 'name' field in the corresponding ServicePort. Must be a DNS_LABEL. Optional only if one port is defined.",
        ),
        port: int32("The port number of the endpoint."),
        protocol: str("The IP protocol for this port. Must be UDP, TCP, or SCTP. Default is TCP."),
        appProtocol: str("The application protocol for this port."),
      },
      { description: "EndpointPort is a tuple that describes a single port.", required: ["port"] },
    ),
  ),
};
