/**
 * The order of the admission chain: kube-apiserver's recommended order (`AllOrderedPlugins` in
 * pkg/kubeapiserver/options/plugins.go) restricted to the plugins gantry has, with gantry's
 * own steps where upstream would run them. The chain runs every `mutate` in this order, then
 * every `validate` in this order, as upstream's mutating and validating phases do.
 */
import type { AdmissionPlugin } from "./admission.ts";

/**
 * Plugin names in chain order. `GangAdmission` and `KueuePodWebhook` stand where webhooks run
 * upstream (MutatingAdmissionWebhook … ValidatingAdmissionWebhook): Kueue's pod webhooks are
 * webhooks there, and strict gang admission plays one. `RBACEscalation` is the RBAC registry's
 * escalation check, which upstream runs before validating admission completes; it stays ahead
 * of `ResourceQuota`, which is always last because it charges the quota.
 */
export const admissionPluginOrder = [
  "NamespaceLifecycle",
  "LimitRanger",
  "ServiceAccount",
  "PodSecurity",
  "Priority",
  "DefaultTolerationSeconds",
  "DefaultStorageClass",
  "StorageObjectInUseProtection",
  "DefaultIngressClass",
  "GangAdmission",
  "KueuePodWebhook",
  "RBACEscalation",
  "ResourceQuota",
] as const;

/** Where plugins with other names go: with the webhooks, before RBACEscalation and ResourceQuota. */
const webhookRank = admissionPluginOrder.indexOf("KueuePodWebhook");

function rankOf(name: string): number {
  const rank = (admissionPluginOrder as readonly string[]).indexOf(name);
  return rank < 0 ? webhookRank : rank;
}

/**
 * The plugins in `admissionPluginOrder`, without those named in `disabled`. Plugins with names
 * the order does not know run where webhooks run, in the order given.
 */
export function orderAdmissionPlugins(
  plugins: readonly AdmissionPlugin[],
  disabled: ReadonlySet<string> = new Set(),
): AdmissionPlugin[] {
  return plugins
    .filter((p) => !disabled.has(p.name))
    .map((plugin, index) => ({ plugin, index, rank: rankOf(plugin.name) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((entry) => entry.plugin);
}
