/**
 * The page: a skip link, the banner with the navigation, the current view in `main`, and one
 * polite live region for connection trouble. Views are addressed by path (see routes.ts);
 * links with `data-route` and views' `navigate` events change the route without a reload.
 * When the server answers 401 (`gantry up --tls`), the page asks for the bearer token.
 */
import { html, LitElement, nothing, type TemplateResult } from "lit";
import type { ClusterData } from "../data/cluster-data.ts";
import { parseRoute, type Route, routePath, views } from "./routes.ts";

export class AppShell extends LitElement {
  static override properties = {
    data: { attribute: false },
    base: { type: String },
    needsToken: { type: Boolean, attribute: false },
  };
  declare data: ClusterData | undefined;
  declare base: string;
  /** Set when a request was refused for want of a token. */
  declare needsToken: boolean;
  #route: Route = { view: "cluster" };
  #onPopState = (): void => this.#follow(false);

  constructor() {
    super();
    this.data = undefined;
    this.base = "/ui/";
    this.needsToken = false;
  }

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#route = parseRoute(location.pathname, this.base);
    window.addEventListener("popstate", this.#onPopState);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener("popstate", this.#onPopState);
  }

  /** Takes the route from the address bar; moves focus to the new view's heading. */
  #follow(focus: boolean): void {
    this.#route = parseRoute(location.pathname, this.base);
    this.requestUpdate();
    if (focus) {
      void this.updateComplete.then(() => {
        this.querySelector<HTMLElement>("#view-title")?.focus();
      });
    }
  }

  #go(route: Route): void {
    const path = routePath(route, this.base);
    if (path !== location.pathname) history.pushState(null, "", path);
    this.#follow(true);
  }

  #onClick(event: MouseEvent): void {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey) return;
    const link = (event.target as Element).closest<HTMLAnchorElement>("a[data-route]");
    if (link === null) return;
    event.preventDefault();
    history.pushState(null, "", link.pathname);
    this.#follow(true);
  }

  #onNavigate(event: Event): void {
    const detail = (event as CustomEvent<Route>).detail;
    this.#go(detail);
  }

  #view(): TemplateResult {
    const route = this.#route;
    switch (route.view) {
      case "cluster":
        return html`<cluster-view .data=${this.data} base=${this.base}></cluster-view>`;
      case "topology":
        return html`<topology-view .data=${this.data} node=${route.node}></topology-view>`;
      case "gangs":
        return html`<gangs-view .data=${this.data}></gangs-view>`;
      case "disruption":
        return html`<disruption-view .data=${this.data} node=${route.node}></disruption-view>`;
      case "queues":
        return html`<queues-view .data=${this.data}></queues-view>`;
    }
  }

  override render(): TemplateResult {
    const current = this.#route.view;
    return html`
      <a class="skip-link" href="#main">Skip to the view</a>
      <header class="banner">
        <p class="brand">gantry <span class="brand-sub">dashboard</span></p>
        <nav aria-label="Views" @click=${(e: MouseEvent) => this.#onClick(e)}>
          <ul>
            ${views.map(
              (v) => html`<li>
                <a
                  href=${routePath(
                    v.view === "topology" || v.view === "disruption"
                      ? { view: v.view, node: "" }
                      : { view: v.view },
                    this.base,
                  )}
                  data-route
                  aria-current=${v.view === current ? "page" : "false"}
                  >${v.title}</a
                >
              </li>`,
            )}
          </ul>
        </nav>
      </header>
      ${this.needsToken ? html`<token-prompt></token-prompt>` : nothing}
      <main
        id="main"
        tabindex="-1"
        @click=${(e: MouseEvent) => this.#onClick(e)}
        @navigate=${(e: Event) => this.#onNavigate(e)}
      >
        ${this.needsToken ? nothing : this.#view()}
      </main>
    `;
  }
}
