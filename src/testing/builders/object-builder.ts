/**
 * What every workload builder shares: the object under construction, copies of it, and the
 * metadata setters. A subclass adds its kind's fluent setters and `clone()` (which must return
 * the subclass).
 */
import type { ObjectMeta } from "../../api/index.ts";

interface BuiltObject {
  metadata: ObjectMeta;
  status?: unknown;
}

export abstract class ObjectBuilder<T extends BuiltObject> {
  protected readonly object: T;

  constructor(object: T) {
    this.object = object;
  }

  obj(): T {
    return structuredClone(this.object);
  }

  /** A copy without uid, generation, creationTimestamp and status, ready for `client.create`. */
  forCreate(): T {
    const copy = this.obj();
    delete copy.metadata.uid;
    delete copy.metadata.generation;
    delete copy.metadata.creationTimestamp;
    delete copy.status;
    return copy;
  }

  namespace(namespace: string): this {
    this.object.metadata.namespace = namespace;
    return this;
  }

  uid(uid: string): this {
    this.object.metadata.uid = uid;
    return this;
  }

  generation(generation: number): this {
    this.object.metadata.generation = generation;
    return this;
  }

  annotation(key: string, value: string): this {
    this.object.metadata.annotations = { ...this.object.metadata.annotations, [key]: value };
    return this;
  }
}
