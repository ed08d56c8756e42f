/**
 * Disruption: each PodDisruptionBudget with its mode (pods or groups), budget, healthy,
 * expected and allowed counts and the groups already below their minCount; then pick a node to
 * see its drain plan — the same planner `gantry drain-plan` runs — before draining it.
 */
import { html, nothing, type TemplateResult } from "lit";
import { planDrain } from "../../api/index.ts";
import type { ResourceName } from "../data/cluster-data.ts";
import { type BudgetRow, budgetRows } from "../model/disruption.ts";
import { StoreView } from "./store-view.ts";

export class DisruptionView extends StoreView {
  protected readonly resources: readonly ResourceName[] = [
    "poddisruptionbudgets",
    "pods",
    "workloads",
    "podgroups",
    "nodes",
  ];
  static override properties = { ...StoreView.properties, node: { type: String } };
  declare node: string;

  constructor() {
    super();
    this.node = "";
  }

  override render(): TemplateResult {
    const pods = this.items("pods");
    const workloads = this.items("workloads");
    const podGroups = this.items("podgroups");
    const budgets = this.items("poddisruptionbudgets");
    const rows = budgetRows(budgets, pods, workloads, podGroups);
    const problem = this.syncProblem();
    return html`
      <h2 id="view-title" tabindex="-1">Disruption</h2>
      ${problem === "" ? nothing : html`<p class="sync-problem">${problem}</p>`}
      <section aria-labelledby="budgets-title">
        <h3 id="budgets-title">PodDisruptionBudgets</h3>
        ${rows.length === 0 ? html`<p>No PodDisruptionBudgets.</p>` : this.#budgets(rows)}
      </section>
      <section aria-labelledby="plan-title">
        <h3 id="plan-title">Drain plan</h3>
        <p class="controls">
          <label for="drain-node">Node to drain</label>
          <select
            id="drain-node"
            @change=${(e: Event) =>
              this.dispatchEvent(
                new CustomEvent("navigate", {
                  bubbles: true,
                  detail: { view: "disruption", node: (e.target as HTMLSelectElement).value },
                }),
              )}
          >
            <option value="" ?selected=${this.node === ""}>Choose a node</option>
            ${this.items("nodes").map(
              (n) =>
                html`<option value=${n.metadata.name ?? ""} ?selected=${n.metadata.name === this.node}>
                  ${n.metadata.name}
                </option>`,
            )}
          </select>
        </p>
        ${this.node === "" ? nothing : this.#plan(this.node)}
      </section>
    `;
  }

  #budgets(rows: readonly BudgetRow[]): TemplateResult {
    return html`<table class="budgets">
      <thead>
        <tr>
          <th scope="col">Budget</th>
          <th scope="col">Mode</th>
          <th scope="col">Spec</th>
          <th scope="col">Healthy / desired</th>
          <th scope="col">Expected</th>
          <th scope="col">Allowed</th>
          <th scope="col">Disrupted</th>
        </tr>
      </thead>
      <tbody>
        ${rows.map(
          (r) => html`<tr>
            <th scope="row">${r.namespace}/${r.name}</th>
            <td><span class="badge badge-info">${r.mode}</span></td>
            <td>${r.budget}</td>
            <td>${r.currentHealthy} / ${r.desiredHealthy}</td>
            <td>${r.expected} ${r.mode === "groups" ? "groups" : "pods"}</td>
            <td>
              <span class="badge ${r.allowed > 0 ? "badge-ok" : "badge-bad"}">${r.allowed}</span>
              ${r.reason === "" ? nothing : html`<div class="muted">${r.reason}</div>`}
            </td>
            <td class="message">
              ${r.brokenGroups.map(
                (g) =>
                  html`<div>
                    <span class="badge badge-warn">broken</span> ${g.key}: ${g.healthy} of minCount
                    ${g.minCount} healthy
                  </div>`,
              )}
              ${
                r.disruptedPods.length === 0
                  ? nothing
                  : html`<div>evicting: ${r.disruptedPods.join(", ")}</div>`
              }
              ${r.missing === undefined ? nothing : html`<div class="sync-problem">${r.missing}</div>`}
              ${
                r.brokenGroups.length === 0 &&
                r.disruptedPods.length === 0 &&
                r.missing === undefined
                  ? html`<span class="muted">none</span>`
                  : nothing
              }
            </td>
          </tr>`,
        )}
      </tbody>
    </table>`;
  }

  #plan(node: string): TemplateResult {
    const pods = this.items("pods");
    const plans = planDrain({
      nodePods: pods.filter((p) => p.spec.nodeName === node),
      budgets: this.items("poddisruptionbudgets"),
      pods,
      workloads: this.items("workloads"),
      podGroups: this.items("podgroups"),
    });
    if (plans.length === 0) return html`<p>No pods on ${node}: nothing to evict.</p>`;
    const blocked = plans.filter((p) => p.evictable === "no").length;
    const breaking = plans.filter((p) => p.breaksGroup).length;
    return html`<p>
        ${plans.length} pods on ${node}; ${blocked} would be refused now, ${breaking} would break
        a group. Run <code>gantry drain-plan ${node} --execute</code> to evict in this order.
      </p>
      <table class="drain-plan">
        <caption class="visually-hidden">Drain plan of ${node}</caption>
        <thead>
          <tr>
            <th scope="col">Order</th>
            <th scope="col">Pod</th>
            <th scope="col">Budget</th>
            <th scope="col">Evict now</th>
            <th scope="col">Group</th>
            <th scope="col">Reason</th>
          </tr>
        </thead>
        <tbody>
          ${plans.map(
            (p, i) => html`<tr>
              <td>${i + 1}</td>
              <th scope="row">${p.namespace}/${p.name}</th>
              <td>${p.pdb === "" ? html`<span class="muted">none</span>` : p.pdb}</td>
              <td>
                <span class="badge ${p.evictable === "no" ? "badge-bad" : p.evictable === "budget" ? "badge-warn" : "badge-ok"}"
                  >${p.evictable}</span
                >
              </td>
              <td>
                ${p.group === "" ? html`<span class="muted">none</span>` : p.group}
                ${p.breaksGroup ? html`<span class="badge badge-warn">breaks it</span>` : nothing}
              </td>
              <td>${p.reason}</td>
            </tr>`,
          )}
        </tbody>
      </table>`;
  }
}
