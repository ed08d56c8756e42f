/** Wire types of `authorization.k8s.io/v1` access reviews, mirroring the JSON exactly. */
import type { ObjectMeta } from "../meta/types.ts";

export interface ResourceAttributes {
  namespace?: string;
  verb?: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  name?: string;
}

export interface NonResourceAttributes {
  path?: string;
  verb?: string;
}

export interface SubjectAccessReviewSpec {
  resourceAttributes?: ResourceAttributes;
  nonResourceAttributes?: NonResourceAttributes;
  user?: string;
  groups?: string[];
  uid?: string;
  extra?: Record<string, string[]>;
}

export interface SubjectAccessReviewStatus {
  allowed: boolean;
  denied?: boolean;
  reason?: string;
  evaluationError?: string;
}

/** SubjectAccessReview, LocalSubjectAccessReview and SelfSubjectAccessReview share this shape. */
export interface AccessReview {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: SubjectAccessReviewSpec;
  status?: SubjectAccessReviewStatus;
  [field: string]: unknown;
}

export interface ResourceRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
}

export interface NonResourceRule {
  verbs: string[];
  nonResourceURLs?: string[];
}

export interface SelfSubjectRulesReview {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: { namespace?: string };
  status?: {
    resourceRules: ResourceRule[];
    nonResourceRules: NonResourceRule[];
    incomplete: boolean;
    evaluationError?: string;
  };
  [field: string]: unknown;
}
