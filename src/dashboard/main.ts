/**
 * The dashboard's entry point, its composition root: defines the custom elements, builds the
 * API client and the shared stores, and mounts the page.
 */
import "./styles/base.css";
import "./styles/views.css";
import "./styles/topology.css";
import { newApiClient } from "./data/api-client.ts";
import { newClusterData } from "./data/cluster-data.ts";
import { AppShell } from "./views/app-shell.ts";
import { ClusterView } from "./views/cluster-view.ts";
import { DisruptionView } from "./views/disruption-view.ts";
import { GangsView } from "./views/gangs-view.ts";
import { QueuesView } from "./views/queues-view.ts";
import { TopologyView } from "./views/topology-view.ts";
import { CpuTopology } from "./widgets/cpu-topology.ts";
import { TokenPrompt, tokenStorageKey } from "./widgets/token-prompt.ts";
import { VirtualTable } from "./widgets/virtual-list.ts";

const elements: readonly [string, CustomElementConstructor][] = [
  ["gantry-app", AppShell],
  ["cluster-view", ClusterView],
  ["topology-view", TopologyView],
  ["gangs-view", GangsView],
  ["disruption-view", DisruptionView],
  ["queues-view", QueuesView],
  ["cpu-topology", CpuTopology],
  ["token-prompt", TokenPrompt],
  ["virtual-table", VirtualTable],
];
for (const [name, element] of elements) {
  if (customElements.get(name) === undefined) customElements.define(name, element);
}

const shell = document.createElement("gantry-app") as AppShell;
shell.base = import.meta.env.BASE_URL;
const api = newApiClient({
  fetch: (url, init) => fetch(url, init),
  token: () => sessionStorage.getItem(tokenStorageKey) ?? undefined,
  onUnauthorized: () => {
    shell.needsToken = true;
  },
});
shell.data = newClusterData(api);
window.addEventListener("pagehide", () => shell.data?.close());
document.body.append(shell);
