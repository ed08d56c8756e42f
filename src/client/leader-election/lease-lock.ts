/**
 * The election record kept in a coordination.k8s.io/v1 Lease, as client-go's
 * `resourcelock.LeaseLock`: `get` reads the record, `create` writes the first one, `update`
 * replaces the spec of the Lease last read or written (a compare-and-swap on its
 * resourceVersion, so of two candidates racing for an expired lease only one wins).
 */
import type { Lease, LeaseSpec } from "../../api/index.ts";
import { type Clock, rfc3339Micro } from "../../util/index.ts";
import { type Client, leasesResource } from "../client.ts";

/** client-go's `LeaderElectionRecord`: what the elector reads and writes. */
export interface ElectionRecord {
  /** "" when nobody holds the lease (after a release). */
  readonly holderIdentity: string;
  readonly leaseDurationSeconds: number;
  /** MicroTime text, "" when unset. */
  readonly acquireTime: string;
  /** MicroTime text, "" when unset. */
  readonly renewTime: string;
  readonly leaseTransitions: number;
}

/** `LeaseSpecToLeaderElectionRecord`: absent fields read as zero values. */
export function recordOfSpec(spec: LeaseSpec | undefined): ElectionRecord {
  return {
    holderIdentity: spec?.holderIdentity ?? "",
    leaseDurationSeconds: spec?.leaseDurationSeconds ?? 0,
    acquireTime: spec?.acquireTime ?? "",
    renewTime: spec?.renewTime ?? "",
    leaseTransitions: spec?.leaseTransitions ?? 0,
  };
}

/** `LeaderElectionRecordToLeaseSpec`: every field is written. */
export function specOfRecord(record: ElectionRecord): LeaseSpec {
  return {
    holderIdentity: record.holderIdentity,
    leaseDurationSeconds: record.leaseDurationSeconds,
    acquireTime: record.acquireTime,
    renewTime: record.renewTime,
    leaseTransitions: record.leaseTransitions,
  };
}

/** A record held by `identity`, acquired and renewed `now`. */
export function freshRecord(
  identity: string,
  leaseDurationSeconds: number,
  clock: Clock,
  leaseTransitions = 0,
): ElectionRecord {
  const now = rfc3339Micro(clock.now());
  return {
    holderIdentity: identity,
    leaseDurationSeconds,
    acquireTime: now,
    renewTime: now,
    leaseTransitions,
  };
}

/** The Lease `namespace/name` and the last version of it this process read or wrote. */
export class LeaseLock {
  readonly #client: Client;
  readonly #namespace: string;
  readonly #name: string;
  #lease: Lease | undefined;

  constructor(client: Client, namespace: string, name: string) {
    this.#client = client;
    this.#namespace = namespace;
    this.#name = name;
  }

  /** `namespace/name`, as log lines name the lock. */
  describe(): string {
    return `${this.#namespace}/${this.#name}`;
  }

  /** The Lease last read or written; undefined before the first success. */
  get lease(): Lease | undefined {
    return this.#lease;
  }

  /** Reads the Lease. Rejects with the client's error (404 NotFound when there is none). */
  async get(signal: AbortSignal): Promise<ElectionRecord> {
    this.#lease = await this.#client.get<Lease>(leasesResource, this.#namespace, this.#name, {
      signal,
    });
    return recordOfSpec(this.#lease.spec);
  }

  /** Creates the Lease holding `record`. 409 AlreadyExists when another candidate was first. */
  async create(record: ElectionRecord, signal: AbortSignal): Promise<void> {
    this.#lease = await this.#client.create<Lease>(
      leasesResource,
      {
        apiVersion: "coordination.k8s.io/v1",
        kind: "Lease",
        metadata: { name: this.#name, namespace: this.#namespace },
        spec: specOfRecord(record),
      },
      { signal },
    );
  }

  /**
   * Writes `record` over the Lease last seen, at its resourceVersion: 409 Conflict when someone
   * else wrote it since. A TypeError before any `get` or `create` succeeded.
   */
  async update(record: ElectionRecord, signal: AbortSignal): Promise<void> {
    if (this.#lease === undefined) {
      throw new TypeError("Cannot update the lease before reading or creating it");
    }
    this.#lease = await this.#client.update<Lease>(
      leasesResource,
      { ...this.#lease, spec: specOfRecord(record) },
      { signal },
    );
  }
}
