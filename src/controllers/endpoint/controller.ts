/**
 * The endpoints controller (upstream's pkg/controller/endpoint): for every Service with a
 * selector, an Endpoints object of the same name listing the matching pods' addresses (ready
 * ones in `addresses`, others in `notReadyAddresses` unless `publishNotReadyAddresses`) with the
 * Service's ports resolved on each pod. The Service's labels are copied (plus
 * `service.kubernetes.io/headless` without a cluster IP), and the object is written only when
 * its subsets, labels or capacity annotation would change. Services without a selector, and
 * ExternalName Services, are left alone; a deleted Service's Endpoints go with it.
 */
import {
  type Endpoints,
  type Pod,
  type Service,
  selectorFromSet,
  semanticEqual,
} from "../../api/index.ts";
import {
  type Client,
  type EventRecorder,
  endpointsResource,
  type InformerFactory,
  isNamespaceTerminating,
  isNotFound,
  podsResource,
  referenceTo,
  servicesResource,
} from "../../client/index.ts";
import {
  type Clock,
  type DeepReadonly,
  deepCopy,
  errorMessage,
  type Logger,
  rfc3339,
} from "../../util/index.ts";
import {
  type Controller,
  defineController,
  done,
  headlessServiceLabel,
  isHeadless,
  lastChangeTriggerTimeAnnotation,
  type ReconcileResult,
  sameLabels,
  splitKey,
  TriggerTimeTracker,
  watch,
} from "../framework/index.ts";
import { computeEndpointSubsets, overCapacityAnnotation, truncateSubsets } from "./subsets.ts";

export interface EndpointsControllerDeps {
  readonly client: Client;
  readonly informers: InformerFactory;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly events: EventRecorder;
}

export interface EndpointsControllerOptions {
  /** Concurrent reconciles (upstream's --concurrent-endpoint-syncs). @default 5 */
  readonly workers?: number;
}

type S = DeepReadonly<Service>;

/** The Service keys (`namespace/name`) whose selector matches any of these label sets. */
function servicesSelecting(
  services: readonly S[],
  labelSets: readonly (Readonly<Record<string, string>> | undefined)[],
): string[] {
  const keys: string[] = [];
  for (const service of services) {
    const selector = service.spec?.selector;
    if (selector === undefined) continue;
    const wanted = Object.entries(selector);
    const matches = labelSets.some((labels) => wanted.every(([k, v]) => labels?.[k] === v));
    if (matches) keys.push(`${service.metadata.namespace}/${service.metadata.name}`);
  }
  return keys;
}

export function newEndpointsController(
  deps: EndpointsControllerDeps,
  options: EndpointsControllerOptions = {},
): Controller {
  const services = deps.informers.forResource<Service>(servicesResource);
  const pods = deps.informers.forResource<Pod>(podsResource);
  const endpoints = deps.informers.forResource<Endpoints>(endpointsResource);
  const tracker = new TriggerTimeTracker();

  const reconcile = async (key: string): Promise<ReconcileResult> => {
    const { namespace, name } = splitKey(key);
    const service = services.lister.get(namespace, name);
    const current = endpoints.lister.get(namespace, name);
    if (service === undefined) {
      // The Service is gone: so are its Endpoints.
      tracker.forget(key);
      if (current === undefined) return done;
      try {
        await deps.client.delete(endpointsResource, namespace, name);
      } catch (error: unknown) {
        if (!isNotFound(error)) throw error;
      }
      return done;
    }
    const selector = service.spec?.selector;
    // ExternalName Services and Services without a selector get no Endpoints from here.
    if (service.spec?.type === "ExternalName" || selector === undefined) return done;
    const selected = pods.lister.list(namespace, selectorFromSet(selector));
    const subsets = computeEndpointSubsets(service, selected);
    const triggerTime = tracker.compute(key, service, selected);
    const truncated = truncateSubsets(subsets);
    const compareLabels = { ...(current?.metadata.labels ?? {}) };
    delete compareLabels[headlessServiceLabel];
    const overCapacitySet = current?.metadata.annotations?.[overCapacityAnnotation] !== undefined;
    if (
      current !== undefined &&
      semanticEqual(current.subsets ?? [], subsets) &&
      sameLabels(compareLabels, service.metadata.labels) &&
      overCapacitySet === truncated
    ) {
      return done;
    }
    const next: Endpoints =
      current === undefined
        ? { apiVersion: "v1", kind: "Endpoints", metadata: { name, namespace } }
        : (deepCopy(current) as Endpoints);
    if (subsets.length > 0) next.subsets = subsets;
    else delete next.subsets;
    const labels: Record<string, string> = { ...(service.metadata.labels ?? {}) };
    if (isHeadless(service)) labels[headlessServiceLabel] = "";
    else delete labels[headlessServiceLabel];
    next.metadata.labels = labels;
    const annotations: Record<string, string> = { ...(next.metadata.annotations ?? {}) };
    if (triggerTime !== undefined)
      annotations[lastChangeTriggerTimeAnnotation] = rfc3339(triggerTime);
    else delete annotations[lastChangeTriggerTimeAnnotation];
    if (truncated) annotations[overCapacityAnnotation] = "truncated";
    else delete annotations[overCapacityAnnotation];
    next.metadata.annotations = annotations;
    await write(service, next, current === undefined);
    return done;
  };

  const write = async (service: S, next: Endpoints, create: boolean): Promise<void> => {
    try {
      if (create) await deps.client.create<Endpoints>(endpointsResource, next);
      else await deps.client.update<Endpoints>(endpointsResource, next);
    } catch (error: unknown) {
      // A namespace being deleted takes the Service with it: nothing to create.
      if (create && isNamespaceTerminating(error)) return;
      // Upstream records these on the Endpoints object it tried to write.
      const ref = referenceTo(next, endpointsResource);
      const where = `${service.metadata.namespace}/${service.metadata.name}`;
      if (create) {
        deps.events.event(
          ref,
          "Warning",
          "FailedToCreateEndpoint",
          `Failed to create endpoint for service ${where}: ${errorMessage(error)}`,
        );
      } else {
        deps.events.event(
          ref,
          "Warning",
          "FailedToUpdateEndpoint",
          `Failed to update endpoint ${where}: ${errorMessage(error)}`,
        );
      }
      throw error;
    }
  };

  const podToKeys = (
    namespace: string,
    labelSets: readonly (Readonly<Record<string, string>> | undefined)[],
  ) => servicesSelecting(services.lister.list(namespace), labelSets);

  return defineController<Service>({
    name: "endpoint",
    primary: services,
    secondary: [
      watch<Pod>(pods, (event) => {
        const namespace = event.object.metadata.namespace ?? "";
        const labelSets = [event.object.metadata.labels];
        if (event.type === "update") labelSets.push(event.oldObject.metadata.labels);
        return podToKeys(namespace, labelSets);
      }),
      // Endpoints changed or deleted by someone else are put back.
      watch<Endpoints>(endpoints, (event) =>
        event.type === "add"
          ? []
          : [`${event.object.metadata.namespace}/${event.object.metadata.name}`],
      ),
    ],
    reconcile,
    workers: options.workers ?? 5,
    clock: deps.clock,
    logger: deps.logger,
  });
}
