/**
 * Asks for the bearer token a `gantry up --tls` server requires (the `token` of the kubeconfig
 * it wrote). The token is kept in sessionStorage, for this tab only, and the page reloads to use
 * it.
 */
import { html, LitElement, type TemplateResult } from "lit";

/** The sessionStorage key the token is kept under. */
export const tokenStorageKey = "gantry.token";

export class TokenPrompt extends LitElement {
  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  #submit(event: SubmitEvent): void {
    event.preventDefault();
    const input = this.querySelector<HTMLInputElement>("#token-input");
    const token = input?.value.trim() ?? "";
    if (token === "") return;
    sessionStorage.setItem(tokenStorageKey, token);
    location.reload();
  }

  override render(): TemplateResult {
    return html`<section class="card token-prompt" aria-labelledby="token-title">
      <h2 id="token-title">This server needs a token</h2>
      <p>
        The API server refused the dashboard's requests (401 Unauthorized). Paste the
        <code>token</code> from the kubeconfig <code>gantry up</code> wrote; it is kept for this
        browser tab only.
      </p>
      <form @submit=${(e: SubmitEvent) => this.#submit(e)}>
        <label for="token-input">Bearer token</label>
        <input id="token-input" type="password" autocomplete="off" required />
        <button type="submit">Connect</button>
      </form>
    </section>`;
  }
}
