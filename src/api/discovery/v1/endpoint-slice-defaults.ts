/** `discovery.k8s.io/v1` defaults (`SetDefaults_EndpointPort`). */
import type { EndpointSlice } from "./endpoint-slice.ts";

/** Every port gets a name (`""`) and a protocol (`TCP`) when it has none. */
export function applyEndpointSliceDefaults(slice: EndpointSlice): void {
  for (const port of slice.ports ?? []) {
    port.name ??= "";
    port.protocol ??= "TCP";
  }
}
