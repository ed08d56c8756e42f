/**
 * Gangs: every Workload with its pod groups — minCount, members scheduled and pending, and what
 * the scheduler says (the PodGroup's PodGroupScheduled condition, the pending pods'
 * PodScheduled messages).
 */
import { html, nothing, type TemplateResult } from "lit";
import type { ResourceName } from "../data/cluster-data.ts";
import { type GangRow, gangSections, type WorkloadSection } from "../model/gangs.ts";
import { StoreView } from "./store-view.ts";

export class GangsView extends StoreView {
  protected readonly resources: readonly ResourceName[] = ["workloads", "podgroups", "pods"];

  override render(): TemplateResult {
    const sections = gangSections(
      this.items("workloads"),
      this.items("podgroups"),
      this.items("pods"),
    );
    const problem = this.syncProblem();
    return html`
      <h2 id="view-title" tabindex="-1">Gangs</h2>
      ${problem === "" ? nothing : html`<p class="sync-problem">${problem}</p>`}
      ${
        sections.length === 0
          ? html`<p>No Workloads or PodGroups.</p>`
          : sections.map((s) => this.#section(s))
      }
    `;
  }

  #section(section: WorkloadSection): TemplateResult {
    const id = `workload-${section.namespace}-${section.name}`;
    return html`<section class="card" aria-labelledby=${id}>
      <h3 id=${id}>
        ${section.exists ? "Workload" : "Missing Workload"} ${section.namespace}/${section.name}
      </h3>
      ${
        section.groups.length === 0
          ? html`<p class="muted">No pod groups yet.</p>`
          : html`<table>
            <caption class="visually-hidden">Pod groups of ${section.namespace}/${section.name}</caption>
            <thead>
              <tr>
                <th scope="col">Group</th>
                <th scope="col">From</th>
                <th scope="col">minCount</th>
                <th scope="col">Scheduled</th>
                <th scope="col">Pending</th>
                <th scope="col">Scheduler</th>
              </tr>
            </thead>
            <tbody>
              ${section.groups.map((g) => this.#row(g))}
            </tbody>
          </table>`
      }
    </section>`;
  }

  #row(g: GangRow): TemplateResult {
    const short = g.minCount !== undefined && g.scheduled.length < g.minCount;
    const names = (members: GangRow["scheduled"]) =>
      members.length === 0
        ? nothing
        : html`<details>
            <summary>pods</summary>
            <ul>
              ${members.map(
                (m) => html`<li>${m.name}${m.node === "" ? nothing : html` → ${m.node}`}</li>`,
              )}
            </ul>
          </details>`;
    const condition = g.condition;
    return html`<tr>
      <th scope="row">${g.label}</th>
      <td>${g.origin}</td>
      <td>${g.minCount ?? html`<span class="badge badge-bad">template missing</span>`}</td>
      <td>
        <span class="badge ${short ? "badge-warn" : "badge-ok"}"
          >${g.scheduled.length}${short ? " (below minCount)" : ""}</span
        >
        ${names(g.scheduled)}
      </td>
      <td>${g.pending.length} ${names(g.pending)}</td>
      <td class="message">
        ${
          condition === undefined
            ? nothing
            : html`<div>
              <span class="badge ${condition.status === "True" ? "badge-ok" : "badge-bad"}"
                >${condition.reason || condition.status}</span
              >
              ${condition.message}
            </div>`
        }
        ${g.podMessages.map((m) => html`<div class="pod-message">${m}</div>`)}
        ${
          g.minCount !== undefined && g.scheduled.length + g.pending.length < g.minCount
            ? html`<div class="pod-message">
              waiting for pods: ${g.scheduled.length + g.pending.length} of minCount ${g.minCount}
              exist
            </div>`
            : nothing
        }
      </td>
    </tr>`;
  }
}
