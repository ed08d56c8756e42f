/**
 * Queues: each ClusterQueue (grouped by cohort) with quota against usage per flavor and
 * resource, its pending Workloads and why they wait, and its admitted ones; the LocalQueues
 * that feed them; and Kueue's plain pods by group, with the pods the admission gate still holds.
 */
import { html, nothing, type TemplateResult } from "lit";
import type { ResourceName } from "../data/cluster-data.ts";
import { formatAmount } from "../model/format.ts";
import {
  type ClusterQueueRow,
  clusterQueueRows,
  localQueueRows,
  plainPodGroups,
  type QueuedWorkload,
} from "../model/queues.ts";
import { usageBar } from "../widgets/usage-bar.ts";
import { StoreView } from "./store-view.ts";

export class QueuesView extends StoreView {
  protected readonly resources: readonly ResourceName[] = [
    "clusterqueues",
    "localqueues",
    "kueueworkloads",
    "pods",
  ];

  override render(): TemplateResult {
    const localQueues = this.items("localqueues");
    const queues = clusterQueueRows(
      this.items("clusterqueues"),
      localQueues,
      this.items("kueueworkloads"),
    );
    const groups = plainPodGroups(this.items("pods"));
    const problem = this.syncProblem();
    return html`
      <h2 id="view-title" tabindex="-1">Queues</h2>
      ${problem === "" ? nothing : html`<p class="sync-problem">${problem}</p>`}
      <section aria-labelledby="cq-title">
        <h3 id="cq-title">ClusterQueues</h3>
        ${queues.length === 0 ? html`<p>No ClusterQueues.</p>` : queues.map((q) => this.#queue(q))}
      </section>
      <section aria-labelledby="lq-title">
        <h3 id="lq-title">LocalQueues</h3>
        ${
          localQueues.length === 0
            ? html`<p>No LocalQueues.</p>`
            : html`<table>
              <thead>
                <tr>
                  <th scope="col">LocalQueue</th>
                  <th scope="col">ClusterQueue</th>
                  <th scope="col">Pending</th>
                  <th scope="col">Admitted</th>
                </tr>
              </thead>
              <tbody>
                ${localQueueRows(localQueues).map(
                  (lq) => html`<tr>
                    <th scope="row">${lq.namespace}/${lq.name}</th>
                    <td>${lq.clusterQueue}</td>
                    <td>${lq.pending}</td>
                    <td>${lq.admitted}</td>
                  </tr>`,
                )}
              </tbody>
            </table>`
        }
      </section>
      <section aria-labelledby="plain-title">
        <h3 id="plain-title">Plain pods waiting for admission</h3>
        ${
          groups.length === 0
            ? html`<p>No queued plain pods.</p>`
            : html`<table>
              <thead>
                <tr>
                  <th scope="col">Group</th>
                  <th scope="col">Queue</th>
                  <th scope="col">Pods</th>
                  <th scope="col">Gated pods</th>
                </tr>
              </thead>
              <tbody>
                ${groups.map(
                  (g) => html`<tr>
                    <th scope="row">
                      ${g.namespace}/${g.name}${g.single ? html` <span class="muted">(single pod)</span>` : nothing}
                    </th>
                    <td>${g.queue}</td>
                    <td>${g.pods}${g.totalCount === undefined ? "" : ` of ${g.totalCount}`}</td>
                    <td>
                      ${
                        g.gated.length === 0
                          ? html`<span class="badge badge-ok">none gated</span>`
                          : html`<span class="badge badge-warn">${g.gated.length} gated</span>
                            ${g.gated.join(", ")}`
                      }
                    </td>
                  </tr>`,
                )}
              </tbody>
            </table>`
        }
      </section>
    `;
  }

  #workloads(title: string, list: readonly QueuedWorkload[], withMessage: boolean): TemplateResult {
    return html`<div class="queued">
      <h5>${title}: ${list.length}</h5>
      ${
        list.length === 0
          ? nothing
          : html`<ul>
            ${list.map(
              (w) =>
                html`<li>
                  ${w.namespace}/${w.name} <span class="muted">via ${w.queue}</span>
                  ${withMessage && w.message !== "" ? html`<div class="message">${w.message}</div>` : nothing}
                </li>`,
            )}
          </ul>`
      }
    </div>`;
  }

  #queue(q: ClusterQueueRow): TemplateResult {
    const id = `cq-${q.name}`;
    return html`<section class="card" aria-labelledby=${id}>
      <h4 id=${id}>
        ${q.name}
        <span class="badge badge-info">cohort: ${q.cohort === "" ? "none" : q.cohort}</span>
        <span class="badge">${q.strategy}</span>
        ${
          q.active !== undefined && q.active.status !== "True"
            ? html`<span class="badge badge-bad">inactive</span>`
            : nothing
        }
      </h4>
      ${
        q.active !== undefined && q.active.status !== "True"
          ? html`<p class="sync-problem">${q.active.message}</p>`
          : nothing
      }
      <table>
        <caption class="visually-hidden">Quota and usage of ${q.name}</caption>
        <thead>
          <tr>
            <th scope="col">Flavor</th>
            <th scope="col">Resource</th>
            <th scope="col">Used / nominal quota</th>
            <th scope="col">Borrowed (limit)</th>
          </tr>
        </thead>
        <tbody>
          ${q.quotas.map(
            (c) => html`<tr>
              <td>${c.flavor}</td>
              <th scope="row">${c.resource}</th>
              <td>${usageBar(c.resource, c.used, c.nominal)}</td>
              <td>
                ${formatAmount(c.resource, c.borrowed)}
                (${c.borrowingLimit === undefined ? "no limit" : formatAmount(c.resource, c.borrowingLimit)})
              </td>
            </tr>`,
          )}
        </tbody>
      </table>
      <div class="queued-lists">
        ${this.#workloads("Pending workloads", q.pending, true)}
        ${this.#workloads("Admitted workloads", q.admitted, false)}
      </div>
    </section>`;
  }
}
