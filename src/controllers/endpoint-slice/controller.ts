/**
 * The endpointslice controller (upstream's pkg/controller/endpointslice): for every Service with
 * a selector, IPv4 EndpointSlices `<service>-<random>` holding the matching pods as endpoints
 * (conditions ready/serving/terminating, nodeName, zone from the node's
 * `topology.kubernetes.io/zone`, targetRef), at most `maxEndpointsPerSlice` per slice, labelled
 * `kubernetes.io/service-name` and `endpointslice.kubernetes.io/managed-by:
 * endpointslice-controller.k8s.io` and controlled by the Service (the garbage collector removes
 * them with it). Slices are written only when they would change; a reconcile on a cache that
 * has not seen this controller's last writes waits for it.
 */
import {
  type EndpointSlice,
  endpointSliceManagedByLabel,
  endpointSliceServiceNameLabel,
  type Node,
  type Pod,
  type Service,
  selectorFromSet,
} from "../../api/index.ts";
import {
  type Client,
  type EventRecorder,
  endpointSlicesResource,
  type InformerFactory,
  isNamespaceTerminating,
  isNotFound,
  nodesResource,
  podsResource,
  referenceTo,
  servicesResource,
} from "../../client/index.ts";
import {
  type Clock,
  type DeepReadonly,
  errorMessage,
  type Logger,
  rfc3339,
} from "../../util/index.ts";
import {
  type Controller,
  defineController,
  done,
  lastChangeTriggerTimeAnnotation,
  type ReconcileResult,
  requeueAfter,
  splitKey,
  TriggerTimeTracker,
  watch,
} from "../framework/index.ts";
import {
  controllerName,
  defaultMaxEndpointsPerSlice,
  planEndpointSlices,
  zoneLabel,
} from "./plan.ts";
import { EndpointSliceTracker } from "./tracker.ts";

export interface EndpointSliceControllerDeps {
  readonly client: Client;
  readonly informers: InformerFactory;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly events: EventRecorder;
}

export interface EndpointSliceControllerOptions {
  /** Concurrent reconciles (upstream's --concurrent-service-endpoint-syncs). @default 5 */
  readonly workers?: number;
  /** Endpoints per slice (upstream's --max-endpoints-per-slice). @default 100 */
  readonly maxEndpointsPerSlice?: number;
}

type S = DeepReadonly<Service>;

/** How long a reconcile on a stale slice cache waits before looking again. */
const staleRetryMs = 100;

function keyOf(object: { metadata: { namespace?: string; name?: string } }): string {
  return `${object.metadata.namespace ?? ""}/${object.metadata.name ?? ""}`;
}

export function newEndpointSliceController(
  deps: EndpointSliceControllerDeps,
  options: EndpointSliceControllerOptions = {},
): Controller {
  const services = deps.informers.forResource<Service>(servicesResource);
  const pods = deps.informers.forResource<Pod>(podsResource);
  const nodes = deps.informers.forResource<Node>(nodesResource);
  const slices = deps.informers.forResource<EndpointSlice>(endpointSlicesResource);
  const triggers = new TriggerTimeTracker();
  const written = new EndpointSliceTracker();
  const maxPerSlice = options.maxEndpointsPerSlice ?? defaultMaxEndpointsPerSlice;

  const reconcile = async (key: string): Promise<ReconcileResult> => {
    const { namespace, name } = splitKey(key);
    const service = services.lister.get(namespace, name);
    if (service === undefined) {
      // The garbage collector deletes the slices the Service controlled.
      triggers.forget(key);
      written.forget(key);
      return done;
    }
    const selector = service.spec?.selector;
    if (service.spec?.type === "ExternalName" || selector === undefined) return done;
    const managed = slices.lister
      .list(
        namespace,
        selectorFromSet({
          [endpointSliceServiceNameLabel]: name,
          [endpointSliceManagedByLabel]: controllerName,
        }),
      )
      .filter((s) => s.metadata.deletionTimestamp === undefined);
    if (written.isStale(key, slices.lister.list(namespace))) return requeueAfter(staleRetryMs);
    const selected = pods.lister.list(namespace, selectorFromSet(selector));
    const plan = planEndpointSlices(
      service,
      selected,
      (node) => nodes.lister.get(undefined, node),
      managed,
      maxPerSlice,
    );
    const trigger = triggers.compute(key, service, selected);
    const stamp = (slice: EndpointSlice): EndpointSlice => {
      if (trigger === undefined) return slice;
      slice.metadata.annotations = {
        ...(slice.metadata.annotations ?? {}),
        [lastChangeTriggerTimeAnnotation]: rfc3339(trigger),
      };
      return slice;
    };
    try {
      for (const slice of plan.update) {
        written.wrote(
          key,
          await deps.client.update<EndpointSlice>(endpointSlicesResource, stamp(slice)),
        );
      }
      for (const slice of plan.create) {
        written.wrote(
          key,
          await deps.client.create<EndpointSlice>(endpointSlicesResource, stamp(slice)),
        );
      }
      for (const slice of plan.delete) {
        const sliceName = slice.metadata.name ?? "";
        try {
          await deps.client.delete(endpointSlicesResource, namespace, sliceName);
        } catch (error: unknown) {
          if (!isNotFound(error)) throw error;
        }
        written.deleted(key, sliceName);
      }
    } catch (error: unknown) {
      if (isNamespaceTerminating(error)) return done;
      fail(service, error);
      throw error;
    }
    return done;
  };

  const fail = (service: S, error: unknown): void => {
    deps.events.event(
      referenceTo(service, servicesResource),
      "Warning",
      "FailedToUpdateEndpointSlices",
      `Error updating Endpoint Slices for Service ${keyOf(service)}: ${errorMessage(error)}`,
    );
  };

  const selecting = (
    namespace: string,
    labelSets: readonly (Readonly<Record<string, string>> | undefined)[],
  ): string[] =>
    services.lister
      .list(namespace)
      .filter((service) => {
        const selector = service.spec?.selector;
        if (selector === undefined) return false;
        const wanted = Object.entries(selector);
        return labelSets.some((labels) => wanted.every(([k, v]) => labels?.[k] === v));
      })
      .map(keyOf);

  return defineController<Service>({
    name: "endpointslice",
    primary: services,
    secondary: [
      watch<Pod>(pods, (event) => {
        const labelSets = [event.object.metadata.labels];
        if (event.type === "update") labelSets.push(event.oldObject.metadata.labels);
        return selecting(event.object.metadata.namespace ?? "", labelSets);
      }),
      // A node's zone is copied into its pods' endpoints.
      watch<Node>(nodes, (event) => {
        if (event.type !== "update") return [];
        const zone = event.object.metadata.labels?.[zoneLabel];
        if (zone === event.oldObject.metadata.labels?.[zoneLabel]) return [];
        const node = event.object.metadata.name ?? "";
        const onNode = pods.lister.list().filter((pod) => pod.spec?.nodeName === node);
        return [
          ...new Set(
            onNode.flatMap((pod) => selecting(pod.metadata.namespace ?? "", [pod.metadata.labels])),
          ),
        ];
      }),
      // Slices of this controller changed or deleted by someone else are put right.
      watch<EndpointSlice>(slices, (event) => {
        const labels = event.object.metadata.labels ?? {};
        const service = labels[endpointSliceServiceNameLabel];
        if (labels[endpointSliceManagedByLabel] !== controllerName || service === undefined)
          return [];
        return [`${event.object.metadata.namespace ?? ""}/${service}`];
      }),
    ],
    reconcile,
    workers: options.workers ?? 5,
    clock: deps.clock,
    logger: deps.logger,
  });
}
