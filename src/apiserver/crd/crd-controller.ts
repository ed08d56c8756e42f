import {
  type CustomResourceDefinition,
  isCrdConditionTrue,
  type KubeObject,
  kindDefinitionForCrd,
} from "../../api/index.ts";
import {
  type Clock,
  errorMessage,
  type JsonObject,
  type Logger,
  rfc3339,
} from "../../util/index.ts";
import { crdPrinter, type TablePrinter } from "../printers/index.ts";
import type { Store, WriteContext } from "../registry/generic/store.ts";
import type { ResourceEntry } from "../registry/generic/strategy.ts";
import type { ResourceRegistry } from "../registry/resource-registry.ts";
import type { CacheEvent, WatchCache } from "../watch-cache/index.ts";
import { setCrdCondition } from "./conditions.ts";
import { crdCleanupFinalizer } from "./crd-strategy.ts";
import { customResourceStrategy } from "./custom-resource-strategy.ts";
import type { CrdConditionValue } from "./naming.ts";

/** The watch-cache segment of CRDs. */
export const crdSegment = "customresourcedefinitions.apiextensions.k8s.io";

export interface CrdControllerDeps {
  readonly registry: ResourceRegistry;
  readonly cache: WatchCache;
  /** Where the Table printers of custom resources go. */
  readonly tables: {
    setCustom(
      group: string,
      version: string,
      resource: string,
      printer: TablePrinter | undefined,
    ): void;
  };
  readonly logger: Logger;
  readonly clock: Clock;
  /** The CRD store: conditions and the cleanup finalizer are written through it. */
  readonly crds: () => Store | undefined;
  /** First delay before a failed cleanup is retried; doubles up to 30 s. @default 1000 */
  readonly retryDelayMs?: number;
}

interface Served {
  readonly group: string;
  readonly plural: string;
  readonly versions: readonly string[];
  /** What serving depends on: spec, accepted names and whether the CRD is terminating. */
  readonly fingerprint: string;
}

const controllerContext = (): WriteContext => ({
  user: { username: "system:apiserver", groups: ["system:masters"] },
  dryRun: false,
  fieldManager: "kube-apiserver",
  warnings: [],
  subresource: "",
});

/**
 * The apiextensions part of the API server. Serves the custom resources of every Established
 * CRD (under its accepted names, with its printer columns) as soon as the CRD reaches the watch
 * cache, and stops when it goes. A terminating CRD's custom resources are deleted, then its
 * cleanup finalizer is released (upstream's CRDFinalizer), with Terminating conditions along the
 * way. When a CRD goes, the other CRDs of its group get their names re-evaluated.
 */
export class CrdController {
  readonly #deps: CrdControllerDeps;
  readonly #served = new Map<string, Served>();
  readonly #cleaning = new Set<string>();
  readonly #tasks = new Set<Promise<void>>();
  #signal: AbortSignal = new AbortController().signal;

  constructor(deps: CrdControllerDeps) {
    this.#deps = deps;
  }

  /**
   * Serves every stored CRD before returning (synchronously), then follows changes. The promise
   * resolves once `signal` aborts and running cleanups have stopped.
   */
  start(signal: AbortSignal): Promise<void> {
    this.#signal = signal;
    const cache = this.#deps.cache.resource(crdSegment);
    for (const object of cache.list("")) this.#guarded(() => this.#sync(object.object));
    if (signal.aborted) return Promise.resolve();
    const stop = cache.watch(
      this.#deps.cache.revision,
      { namespace: "", matches: () => true },
      { deliver: (event) => this.#guarded(() => this.#onEvent(event)) },
    );
    return new Promise((resolve) => {
      signal.addEventListener(
        "abort",
        () => {
          stop();
          void Promise.allSettled([...this.#tasks]).then(() => resolve());
        },
        { once: true },
      );
    });
  }

  #guarded(fn: () => void): void {
    try {
      fn();
    } catch (error: unknown) {
      this.#deps.logger.error("Cannot handle CustomResourceDefinition", { error });
    }
  }

  #onEvent(event: CacheEvent): void {
    const crd = event.object.object as unknown as CustomResourceDefinition;
    const group = crd.spec?.group;
    if (event.type === "DELETED") {
      this.#unserve(event.object.name);
      if (group !== undefined) this.#reconsiderNames(group, event.object.name);
      return;
    }
    this.#sync(event.object.object);
    // A CRD that gave up a name (a short name removed, say) may let another take it.
    const before = (event.prev?.object as unknown as CustomResourceDefinition | undefined)?.status
      ?.acceptedNames;
    if (
      group !== undefined &&
      before !== undefined &&
      JSON.stringify(before) !== JSON.stringify(crd.status?.acceptedNames)
    ) {
      this.#reconsiderNames(group, event.object.name);
    }
  }

  #sync(object: JsonObject): void {
    const crd = object as unknown as CustomResourceDefinition;
    const name = crd.metadata.name ?? "";
    const names = crd.status?.acceptedNames;
    const group = crd.spec?.group ?? "";
    const plural = names?.plural ?? "";
    const terminating = crd.metadata.deletionTimestamp !== undefined;
    const fingerprint = JSON.stringify({ spec: crd.spec, names, terminating });
    const previous = this.#served.get(name);
    if (previous?.fingerprint !== fingerprint) {
      const entries = this.#entriesOf(crd, terminating);
      this.#unserve(name);
      for (const { entry, printer } of entries) {
        const d = entry.definition;
        this.#deps.registry.add(entry);
        this.#deps.tables.setCustom(d.group, d.version, d.resource, printer);
      }
      this.#served.set(name, {
        group,
        plural,
        versions: entries.map((e) => e.entry.definition.version),
        fingerprint,
      });
    }
    if (terminating && (crd.metadata.finalizers ?? []).includes(crdCleanupFinalizer)) {
      this.#cleanup(name);
    }
  }

  /** What an Established CRD serves: one entry per served version, under the accepted names. */
  #entriesOf(
    crd: CustomResourceDefinition,
    terminating: boolean,
  ): { entry: ResourceEntry; printer: TablePrinter }[] {
    const names = crd.status?.acceptedNames;
    if (!isCrdConditionTrue(crd, "Established") || names === undefined) return [];
    if (names.plural === "" || names.kind === "") return [];
    const served = servedCrd(crd);
    const strategy = customResourceStrategy({
      group: crd.spec.group,
      plural: names.plural,
      terminating,
    });
    const out: { entry: ResourceEntry; printer: TablePrinter }[] = [];
    for (const version of crd.spec.versions ?? []) {
      if (!version.served) continue;
      try {
        out.push({
          entry: { definition: kindDefinitionForCrd(served, version.name), strategy },
          printer: crdPrinter(version.additionalPrinterColumns ?? []),
        });
      } catch (error: unknown) {
        this.#deps.logger.error("Cannot serve custom resource version", {
          crd: crd.metadata.name,
          version: version.name,
          error,
        });
      }
    }
    return out;
  }

  #unserve(name: string): void {
    const served = this.#served.get(name);
    if (served === undefined) return;
    for (const version of served.versions) {
      this.#deps.registry.remove(served.group, version, served.plural);
      this.#deps.tables.setCustom(served.group, version, served.plural, undefined);
    }
    this.#served.delete(name);
  }

  /** A CRD went or changed its names: others of its group whose names were refused may take them now. */
  #reconsiderNames(group: string, gone: string): void {
    const store = this.#deps.crds();
    if (store === undefined) return;
    for (const cached of this.#deps.cache.resource(crdSegment).list("")) {
      const crd = cached.object as unknown as CustomResourceDefinition;
      if (crd.spec?.group !== group || cached.name === gone) continue;
      if (crd.metadata.deletionTimestamp !== undefined) continue;
      if (JSON.stringify(crd.spec.names) === JSON.stringify(crd.status?.acceptedNames)) continue;
      // A main-resource update reruns the strategy's naming step.
      this.#track(
        store
          .update("", cached.name, (current) => current, controllerContext())
          .then(() => undefined),
        "Cannot re-evaluate CustomResourceDefinition names",
        cached.name,
      );
    }
  }

  #track(task: Promise<void>, message: string, crd: string): void {
    const tracked = task.then(
      () => undefined,
      (error: unknown) => {
        if (!this.#signal.aborted) this.#deps.logger.error(message, { crd, error });
      },
    );
    this.#tasks.add(tracked);
    void tracked.then(() => this.#tasks.delete(tracked));
  }

  #cleanup(name: string): void {
    if (this.#cleaning.has(name) || this.#signal.aborted) return;
    this.#cleaning.add(name);
    this.#track(
      this.#cleanupUntilDone(name).finally(() => this.#cleaning.delete(name)),
      "Cannot clean up custom resources",
      name,
    );
  }

  /** Runs the finalizer until the CRD is gone, retrying failures with a growing delay. */
  async #cleanupUntilDone(name: string): Promise<void> {
    let delay = this.#deps.retryDelayMs ?? 1000;
    while (!this.#signal.aborted) {
      const key = this.#deps.crds()?.key("", name);
      const cached = key === undefined ? undefined : this.#deps.cache.resource(crdSegment).get(key);
      const crd = cached?.object as unknown as CustomResourceDefinition | undefined;
      if (crd === undefined || crd.metadata.deletionTimestamp === undefined) return;
      if (!(crd.metadata.finalizers ?? []).includes(crdCleanupFinalizer)) return;
      try {
        await this.#finalize(name);
        return;
      } catch (error: unknown) {
        if (this.#signal.aborted) return;
        this.#deps.logger.error("Cannot clean up custom resources; retrying", {
          crd: name,
          error,
        });
      }
      try {
        await this.#deps.clock.sleep(delay, this.#signal);
      } catch (error: unknown) {
        if (this.#signal.aborted) return;
        throw error;
      }
      delay = Math.min(delay * 2, 30_000);
    }
  }

  /** Upstream's CRDFinalizer.sync for one terminating CRD. */
  async #finalize(name: string): Promise<void> {
    const store = this.#deps.crds();
    if (store === undefined) return;
    const crd = await this.#setTerminating(store, name, {
      type: "Terminating",
      status: "True",
      reason: "InstanceDeletionInProgress",
      message: "CustomResource deletion is in progress",
    });
    let done: CrdConditionValue;
    if (isCrdConditionTrue(crd, "Established")) {
      try {
        await this.#deleteInstances(crd);
      } catch (error: unknown) {
        await this.#setTerminating(store, name, {
          type: "Terminating",
          status: "True",
          reason: "InstanceDeletionFailed",
          message: `could not issue all deletes: ${errorMessage(error)}`,
        });
        throw error;
      }
      done = {
        type: "Terminating",
        status: "False",
        reason: "InstanceDeletionCompleted",
        message: "removed all instances",
      };
    } else {
      done = {
        type: "Terminating",
        status: "False",
        reason: "NeverEstablished",
        message: "resource was never established",
      };
    }
    await this.#setTerminating(store, name, done);
    await store.update(
      "",
      name,
      (current) => {
        const finalizers = (current.metadata.finalizers ?? []).filter(
          (f) => f !== crdCleanupFinalizer,
        );
        if (finalizers.length === 0) delete current.metadata.finalizers;
        else current.metadata.finalizers = finalizers;
        return current;
      },
      controllerContext(),
    );
  }

  async #setTerminating(
    store: Store,
    name: string,
    condition: CrdConditionValue,
  ): Promise<CustomResourceDefinition> {
    const updated = await store.update(
      "",
      name,
      (current) => {
        setCrdCondition(
          current as unknown as CustomResourceDefinition,
          condition,
          rfc3339(this.#deps.clock.now()),
        );
        return current;
      },
      { ...controllerContext(), subresource: "status" },
    );
    return updated as unknown as CustomResourceDefinition;
  }

  /** Deletes every custom resource of the CRD and waits until the cache holds none. */
  async #deleteInstances(crd: CustomResourceDefinition): Promise<void> {
    const names = crd.status?.acceptedNames;
    const plural = names?.plural ?? "";
    const group = crd.spec.group;
    const version =
      crd.spec.versions.find((v) => v.storage)?.name ?? crd.spec.versions[0]?.name ?? "";
    if (plural === "" || version === "") return;
    const store =
      this.#deps.registry.lookup(group, version, plural) ??
      this.#deps.registry.detached({
        definition: kindDefinitionForCrd(servedCrd(crd), version),
        strategy: customResourceStrategy({ group, plural, terminating: true }),
      });
    await this.#deps.cache.waitUntilFresh();
    const segment = `${plural}.${group}`;
    const instances = this.#deps.cache.resource(segment);
    const errors: string[] = [];
    for (const object of [...instances.list("")]) {
      if ((object.object as unknown as KubeObject).metadata.deletionTimestamp !== undefined) {
        continue;
      }
      try {
        await store.delete(object.namespace, object.name, {}, controllerContext());
      } catch (error: unknown) {
        if (error instanceof Error && "code" in error && error.code === 404) continue;
        errors.push(errorMessage(error));
      }
    }
    if (errors.length > 0) {
      throw new Error(errors.length === 1 ? (errors[0] ?? "") : `[${errors.join(", ")}]`);
    }
    await this.#untilEmpty(segment);
  }

  /** Resolves once the cache holds no object of `segment`; rejects when the controller stops. */
  #untilEmpty(segment: string): Promise<void> {
    const cache = this.#deps.cache.resource(segment);
    if (cache.size === 0) return Promise.resolve();
    const signal = this.#signal;
    return new Promise((resolve, reject) => {
      let stop: () => void = () => undefined;
      const onAbort = (): void => {
        stop();
        reject(signal.reason);
      };
      const check = (): void => {
        if (cache.size !== 0) return;
        stop();
        signal.removeEventListener("abort", onAbort);
        resolve();
      };
      stop = cache.watch(
        this.#deps.cache.revision,
        { namespace: "", matches: () => true },
        { deliver: check },
      );
      signal.addEventListener("abort", onAbort, { once: true });
      check();
    });
  }
}

/** The CRD as served: its accepted names in place of the requested ones. */
function servedCrd(crd: CustomResourceDefinition): CustomResourceDefinition {
  const names = crd.status?.acceptedNames;
  return names === undefined ? crd : { ...crd, spec: { ...crd.spec, names } };
}
