/**
 * Kueue's pod webhooks (`mpod.kb.io` mutating on CREATE, `vpod.kb.io` validating on CREATE and
 * UPDATE) run in-process as API server admission plugins after the built-in ones, as a
 * webhook runs after them upstream. Denials read as the API server reports a webhook's:
 * `admission webhook "vpod.kb.io" denied the request: <field errors>`.
 */
import { ApiError, type FieldError, fieldErrorString, type Pod } from "../api/index.ts";
import type { ApiServerOptions } from "../apiserver/index.ts";
import {
  defaultPod,
  type PodWebhookEnv,
  type QueueingConfig,
  type QueueingMetrics,
  queueingSystemNamespace,
  validatePodCreate,
  validatePodUpdate,
} from "../queueing/index.ts";

// The admission seam's types, as the API server's options name them.
type ExtraAdmission = NonNullable<ApiServerOptions["extraAdmission"]>;
type ObjectReader = Parameters<ExtraAdmission>[0];
type AdmissionPlugin = ReturnType<ExtraAdmission>[number];
type AdmissionAttributes = Parameters<AdmissionPlugin["handles"]>[0];
type AdmissionDecision = Awaited<ReturnType<NonNullable<AdmissionPlugin["validate"]>>>;

/** The namespaces Kueue's shipped webhook configurations leave out. */
const skippedNamespaces: ReadonlySet<string> = new Set(["kube-system", queueingSystemNamespace]);

function env(reader: ObjectReader, config: QueueingConfig): PodWebhookEnv {
  return {
    config,
    namespaceLabels(namespace) {
      const ns = reader.get("namespaces", "", namespace) as
        | { metadata?: { labels?: Record<string, string> } }
        | undefined;
      return ns === undefined ? undefined : (ns.metadata?.labels ?? {});
    },
    hasLocalQueue(namespace, name) {
      return reader.get("localqueues.kueue.x-k8s.io", namespace, name) !== undefined;
    },
    selectors: new WeakMap(),
  };
}

/** Go's `utilerrors.NewAggregate(list).Error()`: one message alone, several in brackets. */
function aggregate(errors: readonly FieldError[]): string {
  const messages = errors.map(fieldErrorString);
  return messages.length === 1 ? (messages[0] ?? "") : `[${messages.join(", ")}]`;
}

function denied(
  webhook: string,
  code: number,
  reason: "Forbidden" | "NotFound",
  message: string,
): AdmissionDecision {
  return {
    allowed: false,
    error: new ApiError(
      code,
      reason,
      `admission webhook "${webhook}" denied the request: ${message}`,
    ),
  };
}

function isPodRequest(attributes: AdmissionAttributes): boolean {
  return (
    attributes.resource === "pods" &&
    attributes.group === "" &&
    attributes.subresource === "" &&
    (attributes.operation === "CREATE" || attributes.operation === "UPDATE") &&
    !skippedNamespaces.has(attributes.namespace)
  );
}

/** The admission plugins of the queueing component, for `ApiServerOptions.extraAdmission`. */
export function queueingAdmission(
  config: QueueingConfig,
  metrics?: Pick<QueueingMetrics, "podsGated" | "podsRejected">,
): (reader: ObjectReader) => readonly AdmissionPlugin[] {
  return (reader) => {
    const webhookEnv = env(reader, config);
    const plugin: AdmissionPlugin = {
      name: "KueuePodWebhook",
      handles: isPodRequest,
      mutate(attributes) {
        if (attributes.operation !== "CREATE" || attributes.object === undefined) {
          return { allowed: true };
        }
        const result = defaultPod(attributes.object as unknown as Pod, webhookEnv);
        switch (result.kind) {
          case "unchanged":
            return { allowed: true };
          case "error":
            return denied("mpod.kb.io", 404, "NotFound", result.message);
          case "mutated":
            Object.assign(attributes.object, result.pod);
            if (!attributes.dryRun) metrics?.podsGated.inc();
            return { allowed: true };
        }
      },
      validate(attributes) {
        const pod = attributes.object as unknown as Pod | undefined;
        if (pod === undefined) return { allowed: true };
        const old = attributes.oldObject as unknown as Pod | undefined;
        const result =
          attributes.operation === "UPDATE" && old !== undefined
            ? validatePodUpdate(old, pod, webhookEnv)
            : validatePodCreate(pod, webhookEnv);
        if (result.errors.length > 0) {
          if (!attributes.dryRun) metrics?.podsRejected.inc();
          return denied("vpod.kb.io", 403, "Forbidden", aggregate(result.errors));
        }
        return result.warnings.length === 0
          ? { allowed: true }
          : { allowed: true, warnings: result.warnings };
      },
    };
    return [plugin];
  };
}
