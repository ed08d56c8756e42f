/**
 * How the dashboard talks to the API server: same-origin requests with the bearer token the
 * user gave (a `--tls` server requires it; a plain-http one ignores it), JSON bodies, and a
 * typed failure for each non-2xx answer so callers can tell 401 and 410 apart.
 */

/** The slice of `fetch` the dashboard uses; tests pass a fake. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** A non-2xx answer: the HTTP status and the Status message when the body has one. */
export class ApiRequestError extends Error {
  override readonly name = "ApiRequestError";
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

export interface ApiClientOptions {
  readonly fetch: FetchLike;
  /** The bearer token to send, if any. */
  readonly token: () => string | undefined;
  /** Told about every 401, so the page can ask for a token. @default ignored */
  readonly onUnauthorized?: () => void;
}

export interface ApiClient {
  /** GET `path`; resolves to the response once its status is 2xx, else rejects. */
  get(path: string, signal: AbortSignal): Promise<Response>;
  /** GET `path` as JSON. */
  getJson<T>(path: string, signal: AbortSignal): Promise<T>;
}

/** The message of a Status body, or the body's first line. */
async function messageOf(response: Response): Promise<string> {
  const text = await response.text();
  try {
    const status = JSON.parse(text) as { message?: unknown };
    if (typeof status.message === "string") return status.message;
  } catch (error: unknown) {
    if (!(error instanceof SyntaxError)) throw error;
  }
  return text.split("\n")[0]?.trim() || `HTTP ${response.status}`;
}

export function newApiClient(options: ApiClientOptions): ApiClient {
  const get = async (path: string, signal: AbortSignal): Promise<Response> => {
    const headers: Record<string, string> = { Accept: "application/json" };
    const token = options.token();
    if (token !== undefined && token !== "") headers["Authorization"] = `Bearer ${token}`;
    const response = await options.fetch(path, { headers, signal, cache: "no-store" });
    if (response.ok) return response;
    if (response.status === 401) options.onUnauthorized?.();
    throw new ApiRequestError(response.status, await messageOf(response));
  };
  return {
    get,
    getJson: async <T>(path: string, signal: AbortSignal): Promise<T> =>
      (await (await get(path, signal)).json()) as T,
  };
}
