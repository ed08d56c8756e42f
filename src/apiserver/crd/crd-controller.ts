import type { KindDefinition } from "../../api/index.ts";
import type { JsonObject, Logger } from "../../util/index.ts";
import type { TablePrinter } from "../printers/index.ts";
import { crdCleanupFinalizer } from "../registry/builtin-strategies.ts";
import type { Store } from "../registry/generic/store.ts";
import type { ResourceRegistry } from "../registry/resource-registry.ts";
import type { CacheEvent, WatchCache } from "../watch-cache/index.ts";

const crdSegment = "customresourcedefinitions.apiextensions.k8s.io";

export interface CrdControllerDeps {
  readonly registry: ResourceRegistry;
  readonly cache: WatchCache;
  readonly logger: Logger;
  /** The KindDefinition a CRD version is served with. */
  readonly kindFor: (crd: JsonObject, version: string) => KindDefinition;
  /** The Table printer of a CRD version (its additionalPrinterColumns). */
  readonly printerFor: (crd: JsonObject, version: string) => TablePrinter;
  readonly setPrinter: (group: string, resource: string, printer: TablePrinter | undefined) => void;
  /** The CRD store, to remove the cleanup finalizer once the custom resources are gone. */
  readonly crds: () => Store | undefined;
}

interface CrdVersion {
  readonly name: string;
  readonly served?: boolean;
}

interface CrdShape {
  metadata: { name?: string; deletionTimestamp?: string; finalizers?: string[] };
  spec?: { group?: string; names?: { plural?: string }; versions?: CrdVersion[] };
}

/**
 * The apiextensions part of the API server: serves the custom resources of every CRD as soon as
 * the CRD is stored, stops serving them when it goes, and on deletion removes every custom
 * resource before releasing the CRD's cleanup finalizer.
 */
export class CrdController {
  readonly #deps: CrdControllerDeps;
  readonly #served = new Map<string, { group: string; versions: string[]; plural: string }>();

  constructor(deps: CrdControllerDeps) {
    this.#deps = deps;
  }

  /** Serves every stored CRD, then follows changes until `signal` aborts. */
  start(signal: AbortSignal): void {
    const cache = this.#deps.cache.resource(crdSegment);
    for (const object of cache.list("")) this.#sync(object.object);
    const stop = cache.watch(
      this.#deps.cache.revision,
      { namespace: "", matches: () => true },
      { deliver: (event) => this.#onEvent(event) },
    );
    signal.addEventListener("abort", stop, { once: true });
  }

  #onEvent(event: CacheEvent): void {
    if (event.type === "DELETED") this.#unserve(event.object.name);
    else this.#sync(event.object.object);
  }

  #sync(object: JsonObject): void {
    const crd = object as unknown as CrdShape;
    const name = crd.metadata.name ?? "";
    const group = crd.spec?.group ?? "";
    const plural = crd.spec?.names?.plural ?? "";
    const versions = (crd.spec?.versions ?? [])
      .filter((v) => v.served !== false)
      .map((v) => v.name);
    const previous = this.#served.get(name);
    for (const version of previous?.versions ?? []) {
      if (!versions.includes(version) || previous?.plural !== plural) {
        this.#deps.registry.remove(previous?.group ?? group, version, previous?.plural ?? plural);
      }
    }
    for (const version of versions) {
      try {
        const definition = this.#deps.kindFor(object, version);
        this.#deps.registry.add({
          definition,
          strategy: { customResource: true, returnDeletedObject: true },
        });
        this.#deps.setPrinter(group, plural, this.#deps.printerFor(object, version));
      } catch (error: unknown) {
        this.#deps.logger.error("Cannot serve custom resource", { crd: name, version, error });
      }
    }
    this.#served.set(name, { group, versions, plural });
    if (
      crd.metadata.deletionTimestamp !== undefined &&
      (crd.metadata.finalizers ?? []).includes(crdCleanupFinalizer)
    ) {
      this.#cleanup(name, group, versions, plural).catch((error: unknown) =>
        this.#deps.logger.error("Cannot clean up custom resources", { crd: name, error }),
      );
    }
  }

  #unserve(name: string): void {
    const served = this.#served.get(name);
    if (served === undefined) return;
    for (const version of served.versions)
      this.#deps.registry.remove(served.group, version, served.plural);
    this.#deps.setPrinter(served.group, served.plural, undefined);
    this.#served.delete(name);
  }

  /** Deletes every custom resource of the CRD, then releases the CRD's cleanup finalizer. */
  async #cleanup(
    name: string,
    group: string,
    versions: readonly string[],
    plural: string,
  ): Promise<void> {
    const context = {
      user: { username: "system:apiextensions", groups: ["system:masters"] },
      dryRun: false,
      fieldManager: "apiextensions-controller",
      warnings: [],
      subresource: "",
    };
    const version = versions[0];
    const store =
      version === undefined ? undefined : this.#deps.registry.lookup(group, version, plural);
    if (store !== undefined) {
      const cache = this.#deps.cache.resource(`${plural}.${group}`);
      for (const object of [...cache.list("")]) {
        try {
          await store.delete(
            object.namespace,
            object.name,
            { propagationPolicy: "Background" },
            context,
          );
        } catch (error: unknown) {
          if (!(error instanceof Error && "code" in error && error.code === 404)) throw error;
        }
      }
    }
    await this.#deps.crds()?.update(
      "",
      name,
      (crd) => {
        crd.metadata.finalizers = (crd.metadata.finalizers ?? []).filter(
          (f) => f !== crdCleanupFinalizer,
        );
        return crd;
      },
      context,
    );
  }
}
