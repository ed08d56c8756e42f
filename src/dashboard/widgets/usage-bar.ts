/**
 * A requested-against-available bar, as a template (not an element: the cluster view draws
 * thousands). The numbers are always printed beside the bar, and an overcommitted amount is
 * also marked in words, so the colour is never the only signal.
 */
import { html, type TemplateResult } from "lit";
import { formatAmount, percent } from "../model/format.ts";

export function usageBar(
  resource: string,
  used: number,
  total: number,
  label = resource,
): TemplateResult {
  const share = percent(used, total);
  const level = share > 100 ? "over" : share >= 90 ? "high" : "ok";
  const text = `${formatAmount(resource, used)} / ${formatAmount(resource, total)}`;
  return html`<span class="usage usage-${level}">
    <span class="usage-bar" aria-hidden="true"
      ><span class="usage-fill" style="width: ${Math.min(share, 100)}%"></span
    ></span>
    <span class="usage-text"
      ><span class="visually-hidden">${label} </span>${text}
      <span class="usage-share">(${share}%${level === "over" ? ", over" : ""})</span></span
    >
  </span>`;
}
