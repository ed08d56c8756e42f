/**
 * The topology picture of one node: a legend of the pinned containers (swatch, tag, CPUs, "one
 * L3" / "spans N L3") and the nested boxes, one button per CPU. A CPU shows its id and, when
 * pinned, its container's tag over the container's colour and pattern; reserved CPUs are hatched
 * and tagged "R"; shared-pool CPUs are plain. Hovering or focusing a CPU names its pod and
 * container below the picture. The CPUs form one tab stop: arrow keys, Home and End move
 * between them.
 */
import { html, LitElement, nothing, type TemplateResult } from "lit";
import {
  type CpuCell,
  formatCpuList,
  l3Badge,
  type PinnedContainer,
  type TopologyLayout,
} from "../model/topology-layout.ts";

export class CpuTopology extends LitElement {
  static override properties = { layout: { attribute: false }, node: { type: String } };
  declare layout: TopologyLayout | undefined;
  declare node: string;
  /** The CPU hovered or focused, whose details show below the picture. */
  #active: number | undefined;
  /** The CPU that takes focus when the picture is tabbed to. */
  #tabStop: number | undefined;

  constructor() {
    super();
    this.layout = undefined;
    this.node = "";
  }

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  #describe(cell: CpuCell): string {
    const where = `CPU ${cell.id}: socket ${cell.socket}, NUMA node ${cell.numaNode}, L3 ${cell.l3}, core ${cell.core}`;
    const owner = cell.owner === undefined ? undefined : this.layout?.containers[cell.owner];
    switch (cell.state) {
      case "reserved":
        return `${where}; reserved for the system (not allocatable)`;
      case "shared":
        return `${where}; shared pool`;
      case "pinned":
        return owner === undefined
          ? `${where}; pinned`
          : `${where}; pinned to pod ${owner.namespace}/${owner.pod}, container ${owner.container} (${owner.tag})`;
    }
  }

  #onKey(event: KeyboardEvent): void {
    const buttons = [...this.querySelectorAll<HTMLButtonElement>("button.cpu")];
    const at = buttons.indexOf(event.target as HTMLButtonElement);
    if (at < 0) return;
    const moves: Record<string, number> = {
      ArrowRight: at + 1,
      ArrowDown: at + 1,
      ArrowLeft: at - 1,
      ArrowUp: at - 1,
      Home: 0,
      End: buttons.length - 1,
    };
    const to = moves[event.key];
    if (to === undefined) return;
    event.preventDefault();
    const target = buttons[Math.max(0, Math.min(buttons.length - 1, to))];
    if (target === undefined) return;
    this.#tabStop = Number(target.dataset["cpu"]);
    this.requestUpdate();
    target.focus();
  }

  #cpu(cell: CpuCell, tabStop: number): TemplateResult {
    const owner = cell.owner === undefined ? undefined : this.layout?.containers[cell.owner];
    const mark = cell.state === "reserved" ? "R" : (owner?.tag ?? "");
    const description = this.#describe(cell);
    return html`<button
      type="button"
      class="cpu cpu-${cell.state} ${owner === undefined ? "" : `swatch-${owner.swatch}`}"
      data-cpu=${cell.id}
      tabindex=${cell.id === tabStop ? 0 : -1}
      aria-label=${description}
      title=${description}
      @focus=${() => this.#activate(cell.id)}
      @mouseenter=${() => this.#activate(cell.id)}
    >
      <span class="cpu-id">${cell.id}</span><span class="cpu-tag">${mark}</span>
    </button>`;
  }

  #activate(cpu: number): void {
    if (this.#active === cpu) return;
    this.#active = cpu;
    this.requestUpdate();
  }

  #legendRow(c: PinnedContainer): TemplateResult {
    return html`<li>
      <span class="swatch swatch-${c.swatch}" aria-hidden="true">${c.tag}</span>
      <span class="legend-name"><span class="visually-hidden">Tag ${c.tag}: </span>${c.namespace}/${c.pod}
        <span class="muted">container</span> ${c.container}</span>
      <span class="legend-cpus">CPUs ${formatCpuList(c.cpus)}</span>
      <span class="badge ${c.l3Count <= 1 ? "badge-ok" : "badge-warn"}">${l3Badge(c)}</span>
      ${c.numaCount > 1 ? html`<span class="badge badge-warn">spans ${c.numaCount} NUMA</span>` : nothing}
    </li>`;
  }

  override render(): TemplateResult {
    const layout = this.layout;
    if (layout === undefined) return html``;
    const cells = layout.sockets.flatMap((s) =>
      s.numaNodes.flatMap((n) => n.l3.flatMap((l) => l.cores.flatMap((c) => c.threads))),
    );
    const tabStop =
      this.#tabStop !== undefined && cells.some((c) => c.id === this.#tabStop)
        ? this.#tabStop
        : (cells[0]?.id ?? -1);
    const active = cells.find((c) => c.id === this.#active);
    const { counts } = layout;
    return html`
      <section class="topology-legend" aria-labelledby="legend-title">
        <h3 id="legend-title">Pinned containers</h3>
        <p>
          ${counts.total} CPUs: ${counts.pinned} pinned, ${counts.shared} in the shared pool,
          ${counts.reserved} reserved.
          ${layout.pinning ? nothing : html`<strong>This node's CPU manager pins nothing (policy none).</strong>`}
        </p>
        <ul class="legend-keys" aria-label="Key">
          <li><span class="swatch cpu-reserved" aria-hidden="true">R</span> reserved for the system</li>
          <li><span class="swatch cpu-shared" aria-hidden="true"></span> shared pool (no tag)</li>
        </ul>
        ${
          layout.containers.length === 0
            ? html`<p>No container holds exclusive CPUs.</p>`
            : html`<ul class="legend" aria-label="Pinned containers">
              ${layout.containers.map((c) => this.#legendRow(c))}
            </ul>`
        }
        ${
          layout.sharedContainers.length === 0
            ? nothing
            : html`<details>
              <summary>${layout.sharedContainers.length} containers run on the shared pool</summary>
              <ul>
                ${layout.sharedContainers.map(
                  (c) =>
                    html`<li>${c.namespace}/${c.pod} <span class="muted">container</span> ${c.container}</li>`,
                )}
              </ul>
            </details>`
        }
      </section>
      <div
        class="topology"
        role="group"
        aria-label="CPUs of ${this.node}: arrow keys move between CPUs"
        @keydown=${(e: KeyboardEvent) => this.#onKey(e)}
      >
        ${layout.sockets.map(
          (socket) => html`<div class="box socket" role="group" aria-label="Socket ${socket.id}">
            <span class="box-label">Socket ${socket.id}</span>
            ${socket.numaNodes.map(
              (numa) => html`<div class="box numa" role="group" aria-label="NUMA node ${numa.id}">
                <span class="box-label">NUMA node ${numa.id}</span>
                ${numa.l3.map(
                  (l3) => html`<div class="box l3" role="group" aria-label="L3 cache ${l3.id}">
                    <span class="box-label">${l3.bySocket ? `L3 (socket ${l3.id})` : `L3 #${l3.id}`}</span>
                    <div class="cores">
                      ${l3.cores.map(
                        (
                          core,
                        ) => html`<div class="box core" role="group" aria-label="Core ${core.id}">
                          ${core.threads.map((cell) => this.#cpu(cell, tabStop))}
                        </div>`,
                      )}
                    </div>
                  </div>`,
                )}
              </div>`,
            )}
          </div>`,
        )}
      </div>
      <p class="cpu-info">
        ${active === undefined ? "Hover over or focus a CPU to see who holds it." : this.#describe(active)}
      </p>
    `;
  }
}
