import {
  alreadyExists,
  badRequest,
  conflict,
  type DeleteOptions,
  type FieldErrorList,
  FieldPath,
  forbiddenField,
  invalidObject,
  type KubeObject,
  type ManagedFieldsEntry,
  notFound,
  objectJson,
  objectModifiedMessage,
  type SchemaRoot,
  withResourceVersionJson,
} from "../../../api/index.ts";
import { type Storage, StorageError } from "../../../storage/index.ts";
import {
  type Clock,
  type JsonObject,
  jsonEqual,
  type Random,
  rfc3339,
} from "../../../util/index.ts";
import type { AdmissionAttributes, AdmissionChain, UserInfo } from "../../admission/index.ts";
import {
  asWritten,
  clone,
  fromStored,
  generatedName,
  hasFinalizers,
  specChanged,
  toStored,
  unchanged,
} from "./object-meta.ts";
import { keyOf, type ResourceEntry } from "./strategy.ts";
import { rememberWrittenJson } from "./written-json.ts";

/** Tracks `metadata.managedFields`; implemented by apiserver/fieldmanager. */
export interface FieldManagement {
  /** Entries after a non-apply write by `manager`. */
  update(input: {
    live: KubeObject | undefined;
    updated: KubeObject;
    manager: string;
    subresource: string;
    time: string;
    apiVersion: string;
    schema: SchemaRoot;
  }): ManagedFieldsEntry[];
  /**
   * Called after storage accepted `written` and kept `stored` (its own copy): lets the field
   * manager know that the copy's managedFields are the ones it encoded, or the `previous`
   * object's (an update's current one) when the write kept them. @default nothing
   */
  written?(written: KubeObject, stored: JsonObject, previous?: KubeObject): void;
}

/**
 * The API server's watch cache as updates and deletes read it: the latest object it holds at
 * `key` (with `metadata.resourceVersion` set; never mutated), or `undefined`.
 */
export interface CachedState {
  current(key: string): { readonly object: JsonObject; readonly revision: number } | undefined;
}

export interface StoreDeps {
  readonly storage: Storage;
  /**
   * Where updates and deletes take the object they start from, as upstream's cacher does for
   * every GuaranteedUpdate: the watch cache's copy, confirmed against storage only when it
   * turns out stale (a lost race, an error, or a no-op). @default storage only
   */
  readonly cache?: CachedState;
  readonly clock: Clock;
  readonly random: Random;
  readonly admission: AdmissionChain;
  readonly fields: FieldManagement;
  /** The storage root, ending in `/`. */
  readonly root: string;
}

/** Per-request context for writes. */
export interface WriteContext {
  readonly user: UserInfo;
  readonly dryRun: boolean;
  /** The manager recorded in managedFields. */
  readonly fieldManager: string;
  /** Warnings to return in `Warning` headers. */
  readonly warnings: string[];
  /** `""` for the main resource, `status` for the status subresource. */
  readonly subresource: string;
  /** Server-side apply has already computed `metadata.managedFields`. */
  readonly managedFieldsComputed?: boolean;
  /**
   * The request's audit annotations when it is audited: admission decisions' `auditAnnotations`
   * are added here. @default undefined (not audited: annotations are dropped)
   */
  readonly auditAnnotations?: Record<string, string> | undefined;
  /**
   * Aborts when the request's deadline passes (`--request-timeout`): the write is abandoned
   * before it reaches storage, so a request answered with 504 writes nothing.
   * @default undefined (no deadline)
   */
  readonly signal?: WriteAbort | undefined;
}

/** What a write checks before it reaches storage; an `AbortSignal` is one. */
export interface WriteAbort {
  /** Throws the reason once the request is abandoned. */
  throwIfAborted(): void;
}

/** Computes the next state from the current one (a private copy); may throw ApiError. */
export type UpdateFn = (current: KubeObject) => KubeObject | Promise<KubeObject>;

export interface UpdateOptions {
  /**
   * `update` only reads the current object and returns a new one (a replacement body, or a patch
   * applied to a copy of its own), so it gets the current object itself, which it must not
   * change, instead of a private copy made for it.
   * @default false
   */
  readonly readOnlyCurrent?: boolean;
}

export interface DeleteResult {
  readonly object: KubeObject;
  /** True when the object is gone, false when deletion waits (finalizers, grace period). */
  readonly deleted: boolean;
}

const maxConflictRetries = 16;

/**
 * The generic registry store (upstream's `genericregistry.Store`): create, get, update, delete
 * over `Storage`, with defaulting, validation, admission, generation, status handling,
 * finalizers, graceful deletion and managedFields. Reads for lists and watches go through the
 * watch cache, not here.
 */
export class Store {
  readonly entry: ResourceEntry;
  readonly #deps: StoreDeps;

  constructor(entry: ResourceEntry, deps: StoreDeps) {
    this.entry = entry;
    this.#deps = deps;
  }

  get #gr(): { group: string; resource: string } {
    return { group: this.entry.definition.group, resource: this.entry.definition.resource };
  }

  key(namespace: string, name: string): string {
    return keyOf(this.#deps.root, this.entry.definition, namespace, name);
  }

  /** The current object, or 404. */
  async get(namespace: string, name: string): Promise<KubeObject> {
    const found = await this.#deps.storage.get(this.key(namespace, name));
    if (found === undefined) throw notFound(this.#gr, name);
    return fromStored(found.value, found.revision);
  }

  /** Creates `obj` (a private copy) in `namespace`. */
  async create(namespace: string, obj: KubeObject, context: WriteContext): Promise<KubeObject> {
    const { definition, strategy } = this.entry;
    const now = this.#deps.clock.now();
    obj.apiVersion =
      definition.group === "" ? definition.version : `${definition.group}/${definition.version}`;
    obj.kind = definition.kind;
    const meta = obj.metadata;
    if (definition.namespaced) meta.namespace = namespace;
    else delete meta.namespace;
    if ((meta.name ?? "") === "" && (meta.generateName ?? "") !== "") {
      meta.name = generatedName(meta.generateName ?? "", (n) => this.#deps.random.int(n));
    }
    if ((meta.resourceVersion ?? "") !== "") {
      throw badRequest("resourceVersion should not be set on objects to be created");
    }
    meta.uid = this.#deps.random.uuid();
    meta.creationTimestamp = rfc3339(now);
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    delete meta.selfLink;
    if (definition.tracksGeneration) meta.generation = 1;
    else delete meta.generation;
    if (definition.subresources.status && strategy.keepsStatusOnCreate !== true) {
      delete obj["status"];
    }

    definition.applyDefaults(obj);
    const attributes = this.#attributes(
      "CREATE",
      namespace,
      meta.name ?? "",
      obj,
      undefined,
      context,
    );
    // As upstream's create handler: mutating admission runs before the strategy's
    // PrepareForCreate (which derives the pod's QoS class from the requests LimitRanger set).
    await this.#deps.admission.mutate(attributes, context.warnings, context.auditAnnotations);
    strategy.prepareForCreate?.(obj, { clock: this.#deps.clock });
    this.#check(obj, definition.validate(obj));
    await this.#deps.admission.validate(attributes, context.warnings, context.auditAnnotations);
    obj.metadata.managedFields = this.#managedFields(context, obj, {
      live: undefined,
      updated: obj,
      manager: context.fieldManager,
      subresource: context.subresource,
      time: rfc3339(now),
    });
    if (obj.metadata.managedFields?.length === 0) delete obj.metadata.managedFields;
    if (context.dryRun) return obj;
    context.signal?.throwIfAborted();
    const name = obj.metadata.name ?? "";
    try {
      return await this.#write(this.key(namespace, name), obj, undefined);
    } catch (error: unknown) {
      if (error instanceof StorageError && error.reason === "AlreadyExists") {
        throw alreadyExists(this.#gr, name);
      }
      throw error;
    }
  }

  /**
   * Reads the current object, computes the next with `update`, and writes it if anything
   * changed, retrying on a lost race unless `update` itself reports a conflict. Handles status
   * and metadata preservation, generation, validation, admission and managedFields.
   */
  async update(
    namespace: string,
    name: string,
    update: UpdateFn,
    context: WriteContext,
    options: UpdateOptions = {},
  ): Promise<KubeObject> {
    const key = this.key(namespace, name);
    // A dry run answers from storage: nothing written would expose a stale read.
    let cached = context.dryRun ? undefined : this.#deps.cache?.current(key);
    // Lost races count against the retry limit; a stale cached start does not.
    let conflicts = 0;
    for (;;) {
      // The watch cache's object may be stale: whatever goes wrong with it, and a no-op, is
      // decided again from storage (upstream's GuaranteedUpdate with a cached existing object).
      const { state, stale, current } = await this.#startFrom(key, name, cached);
      cached = undefined;
      let next: KubeObject;
      try {
        next = await update(options.readOnlyCurrent === true ? current : clone(current));
        const rv = next.metadata.resourceVersion;
        if (rv !== undefined && rv !== "" && rv !== current.metadata.resourceVersion) {
          throw conflict(this.#gr, name, objectModifiedMessage);
        }
        next.metadata.resourceVersion = current.metadata.resourceVersion ?? "";
        await this.#prepareUpdate(next, current, context);
      } catch (error: unknown) {
        if (stale) continue;
        throw error;
      }
      if (unchanged(next, current)) {
        if (stale) continue;
        return current;
      }
      next.metadata.managedFields = this.#managedFields(context, next, {
        live: current,
        updated: next,
        manager: context.fieldManager,
        subresource: context.subresource,
        time: rfc3339(this.#deps.clock.now()),
      });
      if (next.metadata.managedFields?.length === 0) delete next.metadata.managedFields;
      if (context.dryRun) return next;
      context.signal?.throwIfAborted();
      try {
        if (this.#readyToDelete(next)) {
          const gone = await this.#deps.storage.delete(key, state.revision);
          return fromStored(toStored(next), gone.revision);
        }
        return await this.#write(key, next, state.revision, current);
      } catch (error: unknown) {
        if (!(error instanceof StorageError)) throw error;
        if (error.reason === "NotFound") throw notFound(this.#gr, name);
        if (error.reason !== "Conflict") throw error;
        if (!stale && conflicts++ >= maxConflictRetries) throw error;
      }
    }
  }

  /** Deletes per DeleteOptions: preconditions, finalizers, propagation, grace period. */
  async delete(
    namespace: string,
    name: string,
    options: DeleteOptions,
    context: WriteContext,
  ): Promise<DeleteResult> {
    const key = this.key(namespace, name);
    const { strategy } = this.entry;
    let cached = context.dryRun ? undefined : this.#deps.cache?.current(key);
    // Lost races count against the retry limit; a stale cached start does not.
    let conflicts = 0;
    for (;;) {
      // As in `update`: a cached object is confirmed against storage when anything fails.
      const { state, stale, current } = await this.#startFrom(key, name, cached);
      cached = undefined;
      try {
        this.#checkPreconditions(current, options);
        const attributes = this.#attributes("DELETE", namespace, name, undefined, current, context);
        await this.#deps.admission.validate(attributes, context.warnings, context.auditAnnotations);
      } catch (error: unknown) {
        if (stale) continue;
        throw error;
      }

      const next = clone(current);
      applyPropagationFinalizers(next, options);
      const grace = strategy.gracePeriodSeconds?.(current, options);
      const now = this.#deps.clock.now();
      const deleting = current.metadata.deletionTimestamp !== undefined;
      if (!deleting) strategy.prepareForDelete?.(next, { clock: this.#deps.clock });
      let write: "delete" | "update" | "none";
      if (deleting) {
        // Already terminating: only a shorter grace period or a finalizer change matters.
        const currentGrace = current.metadata.deletionGracePeriodSeconds ?? 0;
        if (grace !== undefined && grace < currentGrace) {
          next.metadata.deletionGracePeriodSeconds = grace;
          next.metadata.deletionTimestamp = rfc3339(new Date(now.getTime() + grace * 1000));
        }
        write = this.#readyToDelete(next) ? "delete" : unchanged(next, current) ? "none" : "update";
      } else if (
        hasFinalizers(next.metadata) ||
        (grace !== undefined && grace > 0) ||
        this.#waitsForOwnFinalizers(next)
      ) {
        const seconds = grace ?? 0;
        next.metadata.deletionTimestamp = rfc3339(new Date(now.getTime() + seconds * 1000));
        next.metadata.deletionGracePeriodSeconds = seconds;
        this.entry.strategy.prepareForUpdate?.(next, current, { clock: this.#deps.clock });
        write = this.#readyToDelete(next) ? "delete" : "update";
      } else {
        write = "delete";
      }
      if (write === "none" && stale) {
        continue;
      }
      if (context.dryRun || write === "none") {
        return { object: write === "delete" ? current : next, deleted: write === "delete" };
      }
      context.signal?.throwIfAborted();
      try {
        if (write === "delete") {
          const gone = await this.#deps.storage.delete(key, state.revision);
          return { object: fromStored(gone.value, gone.revision), deleted: true };
        }
        return { object: await this.#write(key, next, state.revision), deleted: false };
      } catch (error: unknown) {
        if (!(error instanceof StorageError)) throw error;
        if (error.reason === "NotFound") throw notFound(this.#gr, name);
        if (error.reason !== "Conflict") throw error;
        if (!stale && conflicts++ >= maxConflictRetries) throw error;
      }
    }
  }

  /**
   * Stores `obj` (a create when `expected` is undefined, else an update of that revision) and
   * returns it as written. Its JSON is made once: storage writes it, and the answer's text
   * (`writtenJsonOf`) is the same with the resourceVersion added. `obj` is the request's own copy
   * and storage keeps a copy of its own, so the returned object is `obj` itself, not a third copy.
   */
  async #write(
    key: string,
    obj: KubeObject,
    expected: number | undefined,
    previous?: KubeObject,
  ): Promise<KubeObject> {
    const value = toStored(obj);
    const json = objectJson(value);
    const stored =
      expected === undefined
        ? await this.#deps.storage.create(key, value, json.text)
        : await this.#deps.storage.update(key, value, expected, json.text);
    this.#deps.fields.written?.(obj, stored.value, previous);
    const written = asWritten(obj, stored.revision);
    rememberWrittenJson(written, withResourceVersionJson(json, stored.revision));
    return written;
  }

  /**
   * What an update or delete starts from: the watch cache's object when given (`stale`: it may
   * be behind storage; used as is, never changed), else storage's current one (a private copy),
   * or 404.
   */
  async #startFrom(
    key: string,
    name: string,
    cached: { readonly object: JsonObject; readonly revision: number } | undefined,
  ): Promise<{
    state: { readonly object: JsonObject; readonly revision: number };
    stale: boolean;
    current: KubeObject;
  }> {
    if (cached !== undefined) {
      return { state: cached, stale: true, current: cached.object as unknown as KubeObject };
    }
    const found = await this.#deps.storage.get(key);
    if (found === undefined) throw notFound(this.#gr, name);
    return {
      state: { object: found.value, revision: found.revision },
      stale: false,
      current: fromStored(found.value, found.revision),
    };
  }

  /** Applies the generic update rules to `next` given the stored `current`. */
  async #prepareUpdate(
    next: KubeObject,
    current: KubeObject,
    context: WriteContext,
  ): Promise<void> {
    const { definition, strategy } = this.entry;
    setOrDelete(next, "apiVersion", current.apiVersion);
    setOrDelete(next, "kind", current.kind);
    const meta = next.metadata;
    const old = current.metadata;
    if ((meta.uid ?? "") === "") setOrDelete(meta, "uid", old.uid);
    // As upstream's rest.BeforeUpdate: changes to the creation timestamp are ignored.
    meta.creationTimestamp = old.creationTimestamp ?? null;
    if (definition.namespaced && meta.namespace === undefined) {
      setOrDelete(meta, "namespace", old.namespace);
    }
    if (meta.name === undefined) setOrDelete(meta, "name", old.name);
    setOrDelete(meta, "deletionTimestamp", old.deletionTimestamp);
    setOrDelete(meta, "deletionGracePeriodSeconds", old.deletionGracePeriodSeconds);
    delete meta.selfLink;
    if (meta.managedFields === undefined && old.managedFields !== undefined) {
      meta.managedFields = old.managedFields;
    }

    if (context.subresource === "status") {
      // The status subresource changes status only (plus labels and annotations as upstream).
      const status = next["status"];
      const labels = meta.labels;
      const annotations = meta.annotations;
      // Everything but the status comes from the stored object (whose status is not needed),
      // shared rather than copied: `current` is never changed (the watch cache's object, which
      // nothing mutates, or a private copy from storage), nothing on the status path changes
      // what is kept (the status strategy and admission touch status and metadata only), and
      // storage copies what it stores. Sharing also lets the managed-fields comparison and
      // ratcheted validation see at once that the kept fields did not change.
      const keep: Record<string, unknown> = {};
      for (const field in current) {
        keep[field] = field === "status" ? undefined : current[field];
      }
      for (const field of Object.keys(next)) if (field !== "metadata") delete next[field];
      Object.assign(next, keep, {
        metadata: {
          ...(keep["metadata"] as KubeObject["metadata"]),
          managedFields: meta.managedFields,
        },
      });
      if (status === undefined) delete next["status"];
      else next["status"] = status;
      setOrDelete(next.metadata, "labels", labels);
      setOrDelete(next.metadata, "annotations", annotations);
      strategy.prepareForStatusUpdate?.(next, current);
    } else if (context.subresource === "") {
      if (definition.subresources.status) {
        if (current["status"] === undefined) delete next["status"];
        else next["status"] = clone(current["status"]);
      }
      definition.applyDefaults(next);
      strategy.prepareForUpdate?.(next, current, { clock: this.#deps.clock });
    }
    if (definition.tracksGeneration) {
      const generation = old.generation ?? 1;
      // Custom resources without a status subresource count status changes too, as upstream.
      const statusCounts = strategy.customResource === true && !definition.subresources.status;
      const changed =
        specChanged(next, current) ||
        (statusCounts && !jsonEqual(next["status"], current["status"]));
      meta.generation = changed ? generation + 1 : generation;
    }

    const errors: FieldErrorList = [];
    if (old.deletionTimestamp !== undefined) {
      const before = new Set(old.finalizers ?? []);
      const added = (meta.finalizers ?? []).filter((f) => !before.has(f));
      if (added.length > 0) {
        errors.push(
          forbiddenField(
            FieldPath.of("metadata", "finalizers"),
            `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(", ")}}`,
          ),
        );
      }
    }
    // Upstream's binding writes the node name through storage (BindingREST.assignPod), so pod
    // update validation, which forbids changing spec.nodeName, does not apply to it.
    if (context.subresource === "status" && definition.validateStatusUpdate !== undefined) {
      errors.push(...definition.validateStatusUpdate(next, current));
    } else if (context.subresource !== "binding") {
      errors.push(...definition.validateUpdate(next, current));
    }
    this.#check(next, errors);
    const attributes = this.#attributes(
      "UPDATE",
      current.metadata.namespace ?? "",
      current.metadata.name ?? "",
      next,
      current,
      context,
    );
    await this.#deps.admission.mutate(attributes, context.warnings, context.auditAnnotations);
    await this.#deps.admission.validate(attributes, context.warnings, context.auditAnnotations);
  }

  #managedFields(
    context: WriteContext,
    obj: KubeObject,
    input: Omit<Parameters<FieldManagement["update"]>[0], "apiVersion" | "schema">,
  ): ManagedFieldsEntry[] {
    if (context.managedFieldsComputed === true) return obj.metadata.managedFields ?? [];
    const { group, version } = this.entry.definition;
    // An empty list means "not tracked": the caller stores no managedFields at all.
    return this.#deps.fields.update({
      ...input,
      apiVersion: group === "" ? version : `${group}/${version}`,
      schema: this.entry.definition.schema,
    });
  }

  /** A terminating object with nothing left to wait for is deleted instead of updated. */
  #readyToDelete(obj: KubeObject): boolean {
    if (obj.metadata.deletionTimestamp === undefined) return false;
    if (hasFinalizers(obj.metadata) || this.#waitsForOwnFinalizers(obj)) return false;
    if (this.entry.strategy.gracefulDeletion === true) {
      return (obj.metadata.deletionGracePeriodSeconds ?? 0) === 0;
    }
    return true;
  }

  /** Namespaces wait for `spec.finalizers` as well as metadata ones. */
  #waitsForOwnFinalizers(obj: KubeObject): boolean {
    if (this.entry.definition.group !== "" || this.entry.definition.resource !== "namespaces")
      return false;
    const spec = obj["spec"] as { finalizers?: string[] } | undefined;
    return (spec?.finalizers?.length ?? 0) > 0;
  }

  #checkPreconditions(current: KubeObject, options: DeleteOptions): void {
    const pre = options.preconditions;
    if (pre === undefined) return;
    const name = current.metadata.name ?? "";
    if (pre.uid !== undefined && pre.uid !== current.metadata.uid) {
      throw conflict(
        this.#gr,
        name,
        `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${current.metadata.uid ?? ""}`,
      );
    }
    if (
      pre.resourceVersion !== undefined &&
      pre.resourceVersion !== current.metadata.resourceVersion
    ) {
      throw conflict(
        this.#gr,
        name,
        `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${current.metadata.resourceVersion ?? ""}`,
      );
    }
  }

  #check(obj: KubeObject, errors: FieldErrorList): void {
    if (errors.length === 0) return;
    throw invalidObject(
      { group: this.entry.definition.group, kind: this.entry.definition.kind },
      obj.metadata.name ?? obj.metadata.generateName ?? "",
      errors,
    );
  }

  #attributes(
    operation: AdmissionAttributes["operation"],
    namespace: string,
    name: string,
    object: KubeObject | undefined,
    oldObject: KubeObject | undefined,
    context: WriteContext,
  ): AdmissionAttributes {
    const { definition } = this.entry;
    return {
      operation,
      group: definition.group,
      version: definition.version,
      kind: definition.kind,
      resource: definition.resource,
      subresource: context.subresource,
      namespace,
      name,
      object,
      oldObject,
      dryRun: context.dryRun,
      userInfo: context.user,
    };
  }
}

/** Adds or removes the `orphan` / `foregroundDeletion` finalizers a propagation policy asks for. */
function applyPropagationFinalizers(obj: KubeObject, options: DeleteOptions): void {
  const policy =
    options.propagationPolicy ?? (options.orphanDependents === true ? "Orphan" : undefined);
  if (policy === undefined) return;
  const finalizers = new Set(obj.metadata.finalizers ?? []);
  const before = finalizers.size;
  if (policy === "Orphan") {
    finalizers.add("orphan");
    finalizers.delete("foregroundDeletion");
  } else if (policy === "Foreground") {
    finalizers.add("foregroundDeletion");
    finalizers.delete("orphan");
  } else {
    finalizers.delete("orphan");
    finalizers.delete("foregroundDeletion");
  }
  if (finalizers.size === before && policy === "Background") return;
  if (finalizers.size === 0) delete obj.metadata.finalizers;
  else obj.metadata.finalizers = [...finalizers];
}

function setOrDelete<T extends object, K extends keyof T>(
  target: T,
  key: K,
  value: T[K] | undefined,
): void {
  if (value === undefined) delete target[key];
  else target[key] = value;
}
