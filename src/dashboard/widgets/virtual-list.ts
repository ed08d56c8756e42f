/**
 * A virtualised table body: only the rows in (and just around) the scrolled viewport are in the
 * DOM, so 5,000 rows cost as much as 30. Rows have a fixed height. The table keeps its ARIA
 * size (`aria-rowcount`, `aria-rowindex`) so assistive technology knows the whole length, and
 * the scroll area takes focus, so arrow keys and Page Up/Down scroll it.
 */
import { html, LitElement, nothing, type TemplateResult } from "lit";
import { visibleRange } from "./visible-range.ts";

export class VirtualTable<T> extends LitElement {
  static override properties = {
    items: { attribute: false },
    renderRow: { attribute: false },
    header: { attribute: false },
    label: { type: String },
    rowHeight: { type: Number, attribute: "row-height" },
  };
  declare items: readonly T[];
  declare renderRow: (item: T, index: number) => TemplateResult;
  declare header: TemplateResult | undefined;
  declare label: string;
  declare rowHeight: number;
  #scrollTop = 0;
  #viewportHeight = 600;

  constructor() {
    super();
    this.items = [];
    this.renderRow = () => html``;
    this.header = undefined;
    this.label = "";
    this.rowHeight = 44;
  }

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  protected override firstUpdated(): void {
    this.#measure();
  }

  #measure(): void {
    const viewport = this.querySelector<HTMLElement>(".vt-viewport");
    if (viewport === null) return;
    this.#scrollTop = viewport.scrollTop;
    if (viewport.clientHeight > 0 && viewport.clientHeight !== this.#viewportHeight) {
      this.#viewportHeight = viewport.clientHeight;
    }
    this.requestUpdate();
  }

  override render(): TemplateResult {
    const { first, last } = visibleRange(
      this.items.length,
      this.rowHeight,
      this.#scrollTop,
      this.#viewportHeight,
    );
    const rows: TemplateResult[] = [];
    for (let i = first; i < last; i++) {
      const item = this.items[i];
      if (item !== undefined) rows.push(this.renderRow(item, i));
    }
    return html`<div role="table" aria-label=${this.label} aria-rowcount=${this.items.length + 1}
      class="vt">
      ${
        this.header === undefined
          ? nothing
          : html`<div role="rowgroup" class="vt-head">${this.header}</div>`
      }
      <div
        class="vt-viewport"
        tabindex="0"
        role="rowgroup"
        aria-label=${`${this.label}: ${this.items.length} rows, scroll with the arrow keys`}
        @scroll=${() => this.#measure()}
      >
        <div class="vt-spacer" style="height: ${this.items.length * this.rowHeight}px">
          <div class="vt-rows" style="transform: translateY(${first * this.rowHeight}px)">
            ${rows}
          </div>
        </div>
      </div>
    </div>`;
  }
}
