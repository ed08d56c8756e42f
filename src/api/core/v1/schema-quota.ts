/** Named schemas of LimitRange and ResourceQuota (core/v1, as upstream's OpenAPI publishes them). */
import { atomicList, obj, str } from "../../schema/builders.ts";
import type { Definitions, Schema } from "../../schema/schema.ts";
import { kindSchema, listSchema } from "./schema-kind.ts";
import { core, coreName, resourceList } from "./schema-pod-template.ts";

const atomicObject = (schema: Schema): Schema => ({ ...schema, "x-kubernetes-map-type": "atomic" });

export const quotaDefinitions: Definitions = {
  [coreName("LimitRange")]: kindSchema(
    "LimitRange",
    "LimitRange sets resource usage limits for each kind of resource in a Namespace.",
    {
      spec: core(
        "LimitRangeSpec",
        "Spec defines the limits enforced. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
      ),
    },
  ),
  [coreName("LimitRangeList")]: listSchema("LimitRange", core("LimitRange")),
  [coreName("LimitRangeSpec")]: obj(
    {
      limits: atomicList(
        core("LimitRangeItem"),
        "Limits is the list of LimitRangeItem objects that are enforced.",
      ),
    },
    {
      description: "LimitRangeSpec defines a min/max usage limit for resources that match on kind.",
      required: ["limits"],
    },
  ),
  [coreName("LimitRangeItem")]: obj(
    {
      type: str("Type of resource that this limit applies to."),
      max: resourceList("Max usage constraints on this kind by resource name."),
      min: resourceList("Min usage constraints on this kind by resource name."),
      default: resourceList(
        "Default resource requirement limit value by resource name if resource limit is omitted.",
      ),
      defaultRequest: resourceList(
        "DefaultRequest is the default resource requirement request value by resource name if resource request is omitted.",
      ),
      maxLimitRequestRatio: resourceList(
        "MaxLimitRequestRatio if specified, the named resource must have a request and limit that are both non-zero where limit divided by request is less than or equal to the enumerated value; this represents the max burst for the named resource.",
      ),
    },
    {
      description:
        "LimitRangeItem defines a min/max usage limit for any resource that matches on kind.",
      required: ["type"],
    },
  ),
  [coreName("ResourceQuota")]: kindSchema(
    "ResourceQuota",
    "ResourceQuota sets aggregate quota restrictions enforced per namespace",
    {
      spec: core(
        "ResourceQuotaSpec",
        "Spec defines the desired quota. https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
      ),
      status: core(
        "ResourceQuotaStatus",
        "Status defines the actual enforced quota and its current usage. https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
      ),
    },
  ),
  [coreName("ResourceQuotaList")]: listSchema("ResourceQuota", core("ResourceQuota")),
  [coreName("ResourceQuotaSpec")]: obj(
    {
      hard: resourceList(
        "hard is the set of desired hard limits for each named resource. More info: https://kubernetes.io/docs/concepts/policy/resource-quotas/",
      ),
      scopes: atomicList(
        str(),
        "A collection of filters that must match each object tracked by a quota. If not specified, the quota matches all objects.",
      ),
      scopeSelector: core(
        "ScopeSelector",
        "scopeSelector is also a collection of filters like scopes that must match each object tracked by a quota but expressed using ScopeSelectorOperator in combination with possible values. For a resource to match, both scopes AND scopeSelector (if specified in spec), must be matched.",
      ),
    },
    { description: "ResourceQuotaSpec defines the desired hard limits to enforce for Quota." },
  ),
  [coreName("ResourceQuotaStatus")]: obj(
    {
      hard: resourceList(
        "Hard is the set of enforced hard limits for each named resource. More info: https://kubernetes.io/docs/concepts/policy/resource-quotas/",
      ),
      used: resourceList(
        "Used is the current observed total usage of the resource in the namespace.",
      ),
    },
    { description: "ResourceQuotaStatus defines the enforced hard limits and observed use." },
  ),
  [coreName("ScopeSelector")]: atomicObject(
    obj(
      {
        matchExpressions: atomicList(
          core("ScopedResourceSelectorRequirement"),
          "A list of scope selector requirements by scope of the resources.",
        ),
      },
      {
        description:
          "A scope selector represents the AND of the selectors represented by the scoped-resource selector requirements.",
      },
    ),
  ),
  [coreName("ScopedResourceSelectorRequirement")]: obj(
    {
      scopeName: str("The name of the scope that the selector applies to."),
      operator: str(
        "Represents a scope's relationship to a set of values. Valid operators are In, NotIn, Exists, DoesNotExist.",
      ),
      values: atomicList(
        str(),
        "An array of string values. If the operator is In or NotIn, the values array must be non-empty. If the operator is Exists or DoesNotExist, the values array must be empty. This array is replaced during a strategic merge patch.",
      ),
    },
    {
      description:
        "A scoped-resource selector requirement is a selector that contains values, a scope name, and an operator that relates the scope name and values.",
      required: ["scopeName", "operator"],
    },
  ),
};
