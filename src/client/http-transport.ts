import { setMaxListeners } from "node:events";
import { isStatus, type KubeObject } from "../api/index.ts";
import { isPlainObject, type JsonObject } from "../util/index.ts";
import type {
  Client,
  DeleteCollectionOptions,
  DeleteOptions,
  ListOptions,
  ListResult,
  ObjectInput,
  PatchOptions,
  PatchType,
  RequestOptions,
  ResourceRef,
  WatchEvent,
  WatchOptions,
  WriteOptions,
} from "./client.ts";
import { errorFromResponse, TransportError } from "./errors.ts";
import {
  asTransportError,
  type HttpRequest,
  type HttpResponse,
  newConnection,
  readText,
  send,
  warningsOf,
} from "./http-request.ts";
import { splitLines } from "./ndjson.ts";
import { pathOf, queryOf, scopedNamespace, type Target } from "./paths.ts";

export interface HttpClientOptions {
  /** The API server's URL: `http://127.0.0.1:6443` or `https://…`. */
  readonly server: string;
  /** Sent as `Authorization: Bearer <token>`. */
  readonly token?: string;
  /** PEM CA bundle that signs an https server's certificate. @default the system's roots */
  readonly ca?: string | Uint8Array;
  /**
   * A PEM client certificate (with `key`) presented to an https server, which may identify the
   * user by it (the kubeconfig's client-certificate-data). @default none
   */
  readonly cert?: string;
  /** The PEM private key of `cert`. @default none */
  readonly key?: string;
  /** Accept any https certificate (the kubeconfig's insecure-skip-tls-verify). @default false */
  readonly insecureSkipTlsVerify?: boolean;
  /**
   * Reach the server through this Unix domain socket, with plain HTTP, instead of the URL's
   * host and port: how `gantry up` connects the components it runs itself, whose socket only
   * its own user may open. `server` still names the server (the Host header, messages), and
   * the bearer token still authenticates. @default none
   */
  readonly socketPath?: string;
  /** `gantry/<component>`, e.g. `gantry/scheduler`. */
  readonly userAgent: string;
  /**
   * The field manager of writes that name none. @default unset: the server then uses the user
   * agent's first token ("gantry")
   */
  readonly fieldManager?: string;
  /** A non-watch request fails with a TransportError after this long without data. @default 60000 */
  readonly requestTimeoutMs?: number;
  /** Receives each `Warning` the server attaches to a response. @default dropped */
  readonly onWarning?: (message: string) => void;
}

/** A Client over HTTP(S) that owns a keep-alive connection pool. */
export interface HttpClient extends Client, AsyncDisposable {
  /** The server URL requests go to. */
  readonly server: string;
  /** Aborts running requests and watches and closes pooled connections. Idempotent. */
  close(): void;
}

const patchContentTypes: Readonly<Record<PatchType, string>> = {
  merge: "application/merge-patch+json",
  strategic: "application/strategic-merge-patch+json",
  json: "application/json-patch+json",
  apply: "application/apply-patch+yaml",
};

const watchEventTypes: ReadonlySet<string> = new Set([
  "ADDED",
  "MODIFIED",
  "DELETED",
  "BOOKMARK",
  "ERROR",
]);

/**
 * A Client that talks to an API server over HTTP(S): JSON bodies, keep-alive connections, bearer
 * token, watches decoded line by line as they stream. Creating it opens nothing.
 */
export function newClient(options: HttpClientOptions): HttpClient {
  const connection = newConnection({
    server: options.server,
    userAgent: options.userAgent,
    timeoutMs: options.requestTimeoutMs ?? 60_000,
    ...(options.token === undefined ? {} : { token: options.token }),
    ...(options.ca === undefined ? {} : { ca: options.ca }),
    ...(options.cert === undefined ? {} : { cert: options.cert }),
    ...(options.key === undefined ? {} : { key: options.key }),
    ...(options.insecureSkipTlsVerify === undefined
      ? {}
      : { insecureSkipTlsVerify: options.insecureSkipTlsVerify }),
    ...(options.socketPath === undefined ? {} : { socketPath: options.socketPath }),
  });
  const closing = new AbortController();
  // Every running request and watch listens on it: many at once is normal, not a leak.
  setMaxListeners(0, closing.signal);
  const onWarning = options.onWarning;

  // A caller's signal joined with the client's own, made once per caller signal: components pass
  // the one signal of their lifetime with every request, and AbortSignal.any is costly.
  const joined = new WeakMap<AbortSignal, AbortSignal>();
  const signalOf = (options: RequestOptions | undefined): AbortSignal => {
    const own = options?.signal;
    if (own === undefined) return closing.signal;
    let signal = joined.get(own);
    if (signal === undefined) {
      signal = AbortSignal.any([own, closing.signal]);
      // Every request in flight with that caller's signal listens on it.
      setMaxListeners(0, signal);
      joined.set(own, signal);
    }
    return signal;
  };

  /** Sends a request and resolves to the body of a 2xx answer; other codes throw ApiErrors. */
  const callText = async (
    spec: Omit<HttpRequest, "signal">,
    requestOptions: RequestOptions | undefined,
  ): Promise<string> => {
    const signal = signalOf(requestOptions);
    const res = await send(connection, { ...spec, signal });
    reportWarnings(res);
    let text: string;
    try {
      text = await readText(res, `${spec.method} ${spec.path}`);
    } catch (error: unknown) {
      if (signal.aborted) throw signal.reason;
      throw error;
    }
    const code = res.statusCode;
    if (code < 200 || code > 299) throw errorFromResponse(code, text);
    return text;
  };

  /** As `callText`, decoding the answer's JSON. */
  const call = async (
    spec: Omit<HttpRequest, "signal">,
    requestOptions: RequestOptions | undefined,
  ): Promise<unknown> => {
    const text = await callText(spec, requestOptions);
    try {
      return JSON.parse(text) as unknown;
    } catch (error: unknown) {
      throw new TransportError(
        `Cannot ${spec.method} ${spec.path}: the answer is not JSON`,
        "EPROTO",
        {
          cause: error,
        },
      );
    }
  };

  const reportWarnings = (res: HttpResponse): void => {
    if (onWarning === undefined) return;
    for (const warning of warningsOf(res)) onWarning(warning);
  };

  const writeQuery = (write: WriteOptions | undefined, extra: Record<string, string> = {}) =>
    queryOf({
      ...extra,
      fieldManager: write?.fieldManager ?? options.fieldManager,
      dryRun: write?.dryRun === true ? "All" : undefined,
      fieldValidation: write?.fieldValidation,
    });

  const objectTarget = (
    verb: string,
    resource: ResourceRef,
    object: ObjectInput<KubeObject>,
  ): Target & { name: string } => {
    const name = object.metadata.name ?? "";
    const namespace = scopedNamespace(verb, resource, object.metadata.namespace, true, name);
    return { resource, namespace, name };
  };

  const put = async <T extends KubeObject>(
    verb: string,
    resource: ResourceRef,
    object: ObjectInput<T>,
    subresource: string | undefined,
    write: WriteOptions | undefined,
  ): Promise<T> => {
    const target = objectTarget(verb, resource, object);
    const path = pathOf(subresource === undefined ? target : { ...target, subresource });
    const body = await call(
      { method: "PUT", path: path + writeQuery(write), body: JSON.stringify(object) },
      write,
    );
    return body as T;
  };

  async function* watch<T extends KubeObject>(
    resource: ResourceRef,
    namespace: string | undefined,
    watchOptions: WatchOptions,
    signal: AbortSignal,
  ): AsyncGenerator<WatchEvent<T>, void, undefined> {
    const ns = scopedNamespace("watch", resource, namespace, false);
    const path =
      pathOf({ resource, namespace: ns }) +
      queryOf({
        watch: "true",
        labelSelector: watchOptions.labelSelector,
        fieldSelector: watchOptions.fieldSelector,
        resourceVersion: watchOptions.resourceVersion,
        allowWatchBookmarks: watchOptions.allowWatchBookmarks,
        timeoutSeconds: watchOptions.timeoutSeconds,
        sendInitialEvents: watchOptions.sendInitialEvents,
      });
    const describe = `GET ${path}`;
    const stop = new AbortController();
    const combined = AbortSignal.any([signal, closing.signal, stop.signal]);
    try {
      let res: HttpResponse;
      try {
        res = await send(connection, { method: "GET", path, stream: true, signal: combined });
      } catch (error: unknown) {
        if (signal.aborted) return;
        throw error;
      }
      reportWarnings(res);
      const code = res.statusCode;
      if (code !== 200) throw errorFromResponse(code, await readText(res, describe));
      try {
        for await (const line of splitLines(res.body)) yield decodeEvent<T>(line, describe);
      } catch (error: unknown) {
        if (signal.aborted) return;
        if (closing.signal.aborted) throw closing.signal.reason;
        throw asTransportError(error, describe);
      }
    } finally {
      // Leaving the loop early (or an error) must not leave the stream open.
      stop.abort();
    }
  }

  const client: HttpClient = {
    server: connection.base.origin,

    async get<T extends KubeObject>(
      resource: ResourceRef,
      namespace: string | undefined,
      name: string,
      requestOptions?: RequestOptions,
    ): Promise<T> {
      const ns = scopedNamespace("get", resource, namespace, true, name);
      const body = await call(
        { method: "GET", path: pathOf({ resource, namespace: ns, name }) },
        requestOptions,
      );
      return body as T;
    },

    async list<T extends KubeObject>(
      resource: ResourceRef,
      namespace: string | undefined,
      listOptions?: ListOptions,
    ): Promise<ListResult<T>> {
      const ns = scopedNamespace("list", resource, namespace, false);
      const path =
        pathOf({ resource, namespace: ns }) +
        queryOf({
          labelSelector: listOptions?.labelSelector,
          fieldSelector: listOptions?.fieldSelector,
          limit: listOptions?.limit,
          continue: listOptions?.continue,
          resourceVersion: listOptions?.resourceVersion,
          resourceVersionMatch: listOptions?.resourceVersionMatch,
        });
      const body = await call({ method: "GET", path }, listOptions);
      return decodeList<T>(resource, body, path);
    },

    watch,

    async create<T extends KubeObject>(
      resource: ResourceRef,
      object: ObjectInput<T>,
      write?: WriteOptions,
    ): Promise<T> {
      const name = object.metadata.name;
      const ns = scopedNamespace("create", resource, object.metadata.namespace, true, name);
      const body = await call(
        {
          method: "POST",
          path: pathOf({ resource, namespace: ns }) + writeQuery(write),
          body: JSON.stringify(object),
        },
        write,
      );
      return body as T;
    },

    update: (resource, object, write) => put("update", resource, object, undefined, write),

    updateStatus: (resource, object, write) => put("update", resource, object, "status", write),

    async patch<T extends KubeObject>(
      resource: ResourceRef,
      namespace: string | undefined,
      name: string,
      patchType: PatchType,
      patchBody: unknown,
      patchOptions?: PatchOptions,
    ): Promise<T> {
      const ns = scopedNamespace("patch", resource, namespace, true, name);
      const target: Target = { resource, namespace: ns, name };
      const path = pathOf(
        patchOptions?.subresource === undefined
          ? target
          : { ...target, subresource: patchOptions.subresource },
      );
      const force = patchOptions?.force === undefined ? {} : { force: String(patchOptions.force) };
      const body = await call(
        {
          method: "PATCH",
          path: path + writeQuery(patchOptions, force),
          body: JSON.stringify(patchBody),
          contentType: patchContentTypes[patchType],
        },
        patchOptions,
      );
      return body as T;
    },

    async delete<T extends KubeObject>(
      resource: ResourceRef,
      namespace: string | undefined,
      name: string,
      deleteOptions?: DeleteOptions,
    ): Promise<T | undefined> {
      const ns = scopedNamespace("delete", resource, namespace, true, name);
      const body = await call(
        {
          method: "DELETE",
          path: pathOf({ resource, namespace: ns, name }),
          body: JSON.stringify(deleteOptionsBody(deleteOptions)),
        },
        deleteOptions,
      );
      return isStatus(body) ? undefined : (body as T);
    },

    async deleteCollection(
      resource: ResourceRef,
      namespace: string | undefined,
      deleteOptions?: DeleteCollectionOptions,
    ): Promise<void> {
      const ns = scopedNamespace("delete the collection of", resource, namespace, true);
      const path =
        pathOf({ resource, namespace: ns }) +
        queryOf({
          labelSelector: deleteOptions?.labelSelector,
          fieldSelector: deleteOptions?.fieldSelector,
        });
      await call(
        { method: "DELETE", path, body: JSON.stringify(deleteOptionsBody(deleteOptions)) },
        deleteOptions,
      );
    },

    getRaw(path: string, requestOptions?: RequestOptions): Promise<string> {
      return callText({ method: "GET", path }, requestOptions);
    },

    async getSubresource<T extends KubeObject>(
      resource: ResourceRef,
      namespace: string | undefined,
      name: string,
      subresource: string,
      requestOptions?: RequestOptions,
    ): Promise<T> {
      const ns = scopedNamespace(`get ${subresource} of`, resource, namespace, true, name);
      const body = await call(
        { method: "GET", path: pathOf({ resource, namespace: ns, name, subresource }) },
        requestOptions,
      );
      return body as T;
    },

    async updateSubresource<T extends KubeObject>(
      resource: ResourceRef,
      namespace: string | undefined,
      name: string,
      subresource: string,
      object: ObjectInput<KubeObject>,
      write?: WriteOptions,
    ): Promise<T> {
      const ns = scopedNamespace(`update ${subresource} of`, resource, namespace, true, name);
      const body = await call(
        {
          method: "PUT",
          path: pathOf({ resource, namespace: ns, name, subresource }) + writeQuery(write),
          body: JSON.stringify(object),
        },
        write,
      );
      return body as T;
    },

    async createSubresource(
      resource: ResourceRef,
      namespace: string | undefined,
      name: string,
      subresource: string,
      subresourceBody: unknown,
      write?: WriteOptions,
    ): Promise<JsonObject> {
      const ns = scopedNamespace(`create ${subresource} of`, resource, namespace, true, name);
      const body = await call(
        {
          method: "POST",
          path: pathOf({ resource, namespace: ns, name, subresource }) + writeQuery(write),
          body: JSON.stringify(subresourceBody),
        },
        write,
      );
      return isPlainObject(body) ? (body as JsonObject) : {};
    },

    close(): void {
      if (closing.signal.aborted) return;
      closing.abort(
        new TransportError(
          `Cannot reach ${connection.base.origin}: the client is closed`,
          "ECLOSED",
        ),
      );
      connection.pool.destroy();
    },

    [Symbol.asyncDispose]: async (): Promise<void> => client.close(),
  };
  return client;
}

/** The `meta.k8s.io/v1` DeleteOptions body of a DELETE. */
function deleteOptionsBody(options: DeleteOptions | undefined): Record<string, unknown> {
  const wire: Record<string, unknown> = { kind: "DeleteOptions", apiVersion: "v1" };
  if (options?.gracePeriodSeconds !== undefined)
    wire["gracePeriodSeconds"] = options.gracePeriodSeconds;
  if (options?.propagationPolicy !== undefined)
    wire["propagationPolicy"] = options.propagationPolicy;
  if (options?.preconditions !== undefined) wire["preconditions"] = options.preconditions;
  if (options?.dryRun === true) wire["dryRun"] = ["All"];
  return wire;
}

/** A list body as a ListResult; items get the resource's kind and apiVersion when they lack them. */
function decodeList<T extends KubeObject>(
  resource: ResourceRef,
  body: unknown,
  path: string,
): ListResult<T> {
  if (!isPlainObject(body) || !Array.isArray(body["items"])) {
    throw new TransportError(`Cannot GET ${path}: the answer is not a list`, "EPROTO");
  }
  const apiVersion =
    resource.group === "" ? resource.version : `${resource.group}/${resource.version}`;
  const items = body["items"] as T[];
  for (const item of items) {
    if (item.kind === undefined) item.kind = resource.kind;
    if (item.apiVersion === undefined) item.apiVersion = apiVersion;
  }
  const meta = isPlainObject(body["metadata"]) ? body["metadata"] : {};
  const metadata: ListResult<T>["metadata"] = {
    resourceVersion: typeof meta["resourceVersion"] === "string" ? meta["resourceVersion"] : "",
  };
  if (typeof meta["continue"] === "string" && meta["continue"] !== "")
    metadata.continue = meta["continue"];
  if (typeof meta["remainingItemCount"] === "number")
    metadata.remainingItemCount = meta["remainingItemCount"];
  return { items, metadata };
}

/** One line of a watch stream: `{"type":"ADDED","object":{…}}`. */
function decodeEvent<T extends KubeObject>(line: string, describe: string): WatchEvent<T> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error: unknown) {
    throw new TransportError(`Cannot ${describe}: a watch event is not JSON`, "EPROTO", {
      cause: error,
    });
  }
  if (
    !isPlainObject(value) ||
    typeof value["type"] !== "string" ||
    !watchEventTypes.has(value["type"]) ||
    !isPlainObject(value["object"])
  ) {
    throw new TransportError(
      `Cannot ${describe}: got invalid watch event ${JSON.stringify(line.slice(0, 200))}`,
      "EPROTO",
    );
  }
  return value as unknown as WatchEvent<T>;
}
