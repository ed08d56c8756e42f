/**
 * CPU topology: pick a node, see its sockets → NUMA nodes → L3 caches → cores → threads as
 * nested boxes, each CPU drawn as reserved, shared pool, or pinned to a container (colour,
 * pattern and a letter tag); per container whether it sits in one L3. The picture is fetched
 * through the node proxy and fetched again whenever a pod on that node changes.
 */
import { html, nothing, type TemplateResult } from "lit";
import type { ResourceName } from "../data/cluster-data.ts";
import { fetchNodeTopology } from "../data/node-cpus.ts";
import type { TopologyLayout } from "../model/topology-layout.ts";
import { StoreView } from "./store-view.ts";

type Fetched =
  | { readonly kind: "none" }
  | { readonly kind: "loading"; readonly node: string }
  | { readonly kind: "ready"; readonly node: string; readonly layout: TopologyLayout }
  | { readonly kind: "failed"; readonly node: string; readonly message: string };

export class TopologyView extends StoreView {
  protected readonly resources: readonly ResourceName[] = ["nodes", "pods"];
  static override properties = { ...StoreView.properties, node: { type: String } };
  declare node: string;
  #fetched: Fetched = { kind: "none" };
  /** What the last fetch saw of the node's pods; a change means fetch again. */
  #podsSeen = "";
  #inFlight: AbortController | undefined;

  constructor() {
    super();
    this.node = "";
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#inFlight?.abort();
    this.#inFlight = undefined;
    this.#podsSeen = "";
  }

  #select(node: string): void {
    this.dispatchEvent(
      new CustomEvent("navigate", { bubbles: true, detail: { view: "topology", node } }),
    );
  }

  /** Starts a fetch when the node, or any pod on it, changed since the last one. */
  #refresh(node: string): void {
    if (node === "" || this.data === undefined) return;
    const pods = this.items("pods")
      .filter((p) => p.spec.nodeName === node)
      .map((p) => `${p.metadata.namespace}/${p.metadata.name}@${p.metadata.resourceVersion}`)
      .join(",");
    const seen = `${node}|${pods}`;
    if (seen === this.#podsSeen) return;
    this.#podsSeen = seen;
    this.#inFlight?.abort();
    const stop = new AbortController();
    this.#inFlight = stop;
    if (this.#fetched.kind === "none" || ("node" in this.#fetched && this.#fetched.node !== node)) {
      this.#fetched = { kind: "loading", node };
    }
    const api = this.data.api;
    fetchNodeTopology(api, node, stop.signal).then(
      (layout) => {
        if (stop.signal.aborted) return;
        this.#fetched = { kind: "ready", node, layout };
        this.requestUpdate();
      },
      (error: unknown) => {
        if (stop.signal.aborted) return;
        this.#fetched = {
          kind: "failed",
          node,
          message: error instanceof Error ? error.message : String(error),
        };
        this.requestUpdate();
      },
    );
  }

  override render(): TemplateResult {
    const nodes = this.items("nodes").map((n) => n.metadata.name ?? "");
    const node = this.node !== "" ? this.node : (nodes[0] ?? "");
    this.#refresh(node);
    const fetched = this.#fetched;
    const problem = this.syncProblem();
    return html`
      <h2 id="view-title" tabindex="-1">CPU topology${node === "" ? "" : html` of ${node}`}</h2>
      ${problem === "" ? nothing : html`<p class="sync-problem">${problem}</p>`}
      <p class="controls">
        <label for="topology-node">Node</label>
        <select id="topology-node" @change=${(e: Event) => this.#select((e.target as HTMLSelectElement).value)}>
          ${nodes.map((n) => html`<option value=${n} ?selected=${n === node}>${n}</option>`)}
        </select>
      </p>
      ${
        node === ""
          ? html`<p>No nodes yet.</p>`
          : fetched.kind === "failed"
            ? html`<p class="sync-problem">Cannot read the CPUs of ${fetched.node}: ${fetched.message}</p>`
            : fetched.kind === "ready"
              ? html`<cpu-topology .layout=${fetched.layout} node=${fetched.node}></cpu-topology>`
              : html`<p>Loading the CPUs of ${node}…</p>`
      }
    `;
  }
}
