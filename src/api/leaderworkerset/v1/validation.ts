/**
 * LeaderWorkerSet validation: the rules of upstream's validating webhook (`generalValidate` in
 * pkg/webhooks/leaderworkerset_webhook.go), with its messages and field paths (including its
 * capitalised `SubGroupPolicy` path segment). Takes a defaulted object. Pure.
 */
import {
  isNotMoreThan100Percent,
  validatePositiveIntOrPercent,
} from "../../apps/v1/validation-helpers.ts";
import { type FieldErrorList, invalid } from "../../meta/field-errors.ts";
import { fieldPath } from "../../meta/field-path.ts";
import { isDns1035Label } from "../../validation/names.ts";
import { type DefaultedLeaderWorkerSet, scaledIntOrPercent } from "./defaults.ts";
import { subGroupExclusiveTopologyAnnotation } from "./labels.ts";

const maxInt32 = 2 ** 31 - 1;

/** Every reason upstream's webhook would refuse `lws` on create; empty when it is valid. */
export function validateLeaderWorkerSet(lws: DefaultedLeaderWorkerSet): FieldErrorList {
  const errs: FieldErrorList = [];
  const spec = fieldPath("spec");
  const name = lws.metadata.name ?? "";
  // The name is also the headless service's, so it must be a DNS-1035 label.
  for (const msg of isDns1035Label(name)) {
    errs.push(invalid(fieldPath("metadata", "name"), name, msg));
  }
  const replicas = lws.spec.replicas;
  const template = lws.spec.leaderWorkerTemplate;
  const size = template.size;
  if (replicas < 0) {
    errs.push(
      invalid(spec.child("replicas"), replicas, "replicas must be equal or greater than 0"),
    );
  }
  if (size < 1) {
    errs.push(
      invalid(
        spec.child("leaderWorkerTemplate", "size"),
        size,
        "size must be equal or greater than 1",
      ),
    );
  }
  if (replicas * size > maxInt32) {
    errs.push(
      invalid(
        spec.child("replicas"),
        replicas,
        `the product of replicas and worker replicas must not exceed ${maxInt32}`,
      ),
    );
  }

  const rolling = lws.spec.rolloutStrategy.rollingUpdateConfiguration;
  const rollingPath = spec.child("rolloutStrategy", "rollingUpdateConfiguration");
  const maxUnavailablePath = rollingPath.child("maxUnavailable");
  const maxSurgePath = rollingPath.child("maxSurge");
  errs.push(...validatePositiveIntOrPercent(rolling.maxUnavailable, maxUnavailablePath));
  errs.push(...isNotMoreThan100Percent(rolling.maxUnavailable, maxUnavailablePath));
  errs.push(...validatePositiveIntOrPercent(rolling.maxSurge, maxSurgePath));
  errs.push(...isNotMoreThan100Percent(rolling.maxSurge, maxSurgePath));
  if (rolling.partition < 0) {
    errs.push(
      invalid(
        rollingPath.child("partition"),
        rolling.partition,
        "must be greater than or equal to 0",
      ),
    );
  }
  const maxUnavailable = scaledIntOrPercent(rolling.maxUnavailable, replicas, false);
  if (maxUnavailable === undefined) {
    errs.push(invalid(maxUnavailablePath, rolling.maxUnavailable, "invalid value"));
  }
  const maxSurge = scaledIntOrPercent(rolling.maxSurge, replicas, true);
  if (maxSurge === undefined) {
    errs.push(invalid(maxSurgePath, rolling.maxSurge, "invalid value"));
  }
  if ((maxUnavailable ?? 0) === 0 && (maxSurge ?? 0) === 0 && replicas !== 0) {
    errs.push(
      invalid(maxUnavailablePath, rolling.maxUnavailable, "must not be 0 when `maxSurge` is 0"),
    );
  }

  const subGroup = template.subGroupPolicy;
  if (subGroup !== undefined) {
    const path = spec.child("leaderWorkerTemplate", "SubGroupPolicy", "subGroupSize");
    const subGroupSize = subGroup.subGroupSize ?? 0;
    if (subGroupSize < 1) {
      errs.push(invalid(path, subGroupSize, "subGroupSize must be equal or greater than 1"));
    } else {
      if (size % subGroupSize !== 0 && (size - 1) % subGroupSize !== 0) {
        errs.push(
          invalid(path, subGroupSize, "size or size - 1 must be divisible by subGroupSize"),
        );
      }
      if (size < subGroupSize) {
        errs.push(invalid(path, subGroupSize, "subGroupSize cannot be larger than size"));
      }
      if (subGroup.subGroupPolicyType === "LeaderExcluded" && (size - 1) % subGroupSize !== 0) {
        errs.push(
          invalid(
            path,
            subGroupSize,
            "size-1 must be divisible by subGroupSize when using LeaderExcluded",
          ),
        );
      }
    }
  } else {
    const topology = lws.metadata.annotations?.[subGroupExclusiveTopologyAnnotation];
    if (topology !== undefined) {
      errs.push(
        invalid(
          fieldPath("metadata", "annotations", subGroupExclusiveTopologyAnnotation),
          topology,
          "cannot have subgroup-exclusive-topology without subGroupSize set",
        ),
      );
    }
  }
  return errs;
}
