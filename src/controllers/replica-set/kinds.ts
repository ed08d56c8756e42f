/**
 * What the ReplicaSet logic needs of the kind it manages. ReplicaSet and ReplicationController
 * share one controller, as upstream's ReplicationManager wraps the ReplicaSet controller.
 */
import {
  type KubeObject,
  type LabelSelector,
  type LabelSelectorExpr,
  type PodTemplateSpec,
  type ReplicaSet,
  type ReplicaSetStatus,
  type ReplicationController,
  selectorFromLabelSelector,
  selectorFromSet,
} from "../../api/index.ts";
import {
  type ResourceRef,
  replicaSetsResource,
  replicationControllersResource,
} from "../../client/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import type { OwnerIdentity } from "../framework/index.ts";

/** The fields of one ReplicaSet or ReplicationController, read uniformly. */
export interface ReplicaSetView {
  readonly object: DeepReadonly<KubeObject>;
  readonly replicas: number;
  readonly minReadySeconds: number;
  /** Throws ApiError 400 for an invalid selector. */
  selector(): LabelSelectorExpr;
  readonly template: DeepReadonly<PodTemplateSpec> | undefined;
  readonly status: DeepReadonly<ReplicaSetStatus> | undefined;
}

export interface ReplicaSetKind {
  readonly resource: ResourceRef;
  readonly identity: OwnerIdentity;
  /** The controller name (logs) and event source component. */
  readonly name: string;
  readonly component: string;
  view(object: DeepReadonly<KubeObject>): ReplicaSetView;
}

export const replicaSetKind: ReplicaSetKind = {
  resource: replicaSetsResource,
  identity: { apiVersion: "apps/v1", kind: "ReplicaSet" },
  name: "replicaset",
  component: "replicaset-controller",
  view(object) {
    const rs = object as DeepReadonly<ReplicaSet>;
    return {
      object,
      replicas: rs.spec.replicas ?? 1,
      minReadySeconds: rs.spec.minReadySeconds ?? 0,
      selector: () => selectorFromLabelSelector(rs.spec.selector as LabelSelector | undefined),
      template: rs.spec.template,
      status: rs.status,
    };
  },
};

export const replicationControllerKind: ReplicaSetKind = {
  resource: replicationControllersResource,
  identity: { apiVersion: "v1", kind: "ReplicationController" },
  name: "replicationcontroller",
  component: "replication-controller",
  view(object) {
    const rc = object as DeepReadonly<ReplicationController>;
    return {
      object,
      replicas: rc.spec?.replicas ?? 1,
      minReadySeconds: rc.spec?.minReadySeconds ?? 0,
      selector: () => selectorFromSet(rc.spec?.selector),
      template: rc.spec?.template,
      status: rc.status,
    };
  },
};
