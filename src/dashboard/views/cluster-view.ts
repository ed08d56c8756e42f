/**
 * Cluster: every node with what its pods request against what it can hold (cpu, memory, pods
 * and extended resources), whether it is Ready and whether it is cordoned, in a virtualised
 * table; the totals above it.
 */
import { html, nothing, type TemplateResult } from "lit";
import type { ResourceName } from "../data/cluster-data.ts";
import { formatAmount } from "../model/format.ts";
import { type NodeRow, newNodeRowsMemo } from "../model/node-usage.ts";
import { usageBar } from "../widgets/usage-bar.ts";
import { StoreView } from "./store-view.ts";

const rowHeight = 44;

export class ClusterView extends StoreView {
  protected readonly resources: readonly ResourceName[] = ["nodes", "pods"];
  declare base: string;
  readonly #nodeRows = newNodeRowsMemo();

  static override properties = { ...StoreView.properties, base: { type: String } };

  constructor() {
    super();
    this.base = "/ui/";
  }

  override render(): TemplateResult {
    const { rows, summary } = this.#nodeRows(this.items("nodes"), this.items("pods"));
    const problem = this.syncProblem();
    return html`
      <h2 id="view-title" tabindex="-1">Cluster</h2>
      ${problem === "" ? nothing : html`<p class="sync-problem">${problem}</p>`}
      <dl class="summary" aria-label="Cluster totals">
        <div><dt>Nodes</dt><dd>${summary.nodes}</dd></div>
        <div><dt>Not ready</dt><dd>${summary.notReady}</dd></div>
        <div><dt>Cordoned</dt><dd>${summary.cordoned}</dd></div>
        <div><dt>Pods on nodes</dt><dd>${summary.pods}</dd></div>
        <div>
          <dt>CPU requested</dt>
          <dd>${usageBar("cpu", summary.cpu.requested, summary.cpu.allocatable, "CPU cores")}</dd>
        </div>
        <div>
          <dt>Memory requested</dt>
          <dd>${usageBar("memory", summary.memory.requested, summary.memory.allocatable)}</dd>
        </div>
      </dl>
      <virtual-table
        class="nodes-table"
        label="Nodes"
        row-height=${rowHeight}
        .items=${rows}
        .header=${header}
        .renderRow=${(row: NodeRow, index: number) => this.#row(row, index)}
      ></virtual-table>
    `;
  }

  #row(row: NodeRow, index: number): TemplateResult {
    const state =
      row.ready === "True"
        ? html`<span class="badge badge-ok">Ready</span>`
        : html`<span class="badge badge-bad">${row.ready === "False" ? "NotReady" : "Unknown"}</span>`;
    return html`<div role="row" class="node-row" aria-rowindex=${index + 2}>
      <span role="cell" class="col-name"
        ><a href="${this.base}topology/${encodeURIComponent(row.name)}" data-route
          >${row.name}</a
        ></span
      >
      <span role="cell" class="col-state"
        >${state}${
          row.cordoned ? html` <span class="badge badge-warn">SchedulingDisabled</span>` : nothing
        }</span
      >
      <span role="cell" class="col-usage">${usageBar("cpu", row.cpu.requested, row.cpu.allocatable, "CPU cores")}</span>
      <span role="cell" class="col-usage">${usageBar("memory", row.memory.requested, row.memory.allocatable)}</span>
      <span role="cell" class="col-usage">${usageBar("pods", row.pods.requested, row.pods.allocatable)}</span>
      <span role="cell" class="col-extended"
        >${
          row.extended.length === 0
            ? html`<span class="muted">none</span>`
            : row.extended.map(
                (e) =>
                  html`<span class="extended"
                  >${e.resource} ${formatAmount(e.resource, e.requested)}/${formatAmount(e.resource, e.allocatable)}</span
                >`,
              )
        }</span
      >
    </div>`;
  }
}

const header = html`<div role="row" class="node-row node-head" aria-rowindex="1">
  <span role="columnheader" class="col-name">Node</span>
  <span role="columnheader" class="col-state">State</span>
  <span role="columnheader" class="col-usage">CPU requested / allocatable</span>
  <span role="columnheader" class="col-usage">Memory requested / allocatable</span>
  <span role="columnheader" class="col-usage">Pods / max</span>
  <span role="columnheader" class="col-extended">Extended resources</span>
</div>`;
