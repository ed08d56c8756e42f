import { parse } from "yaml";
import { errorMessage, isPlainObject } from "../util/index.ts";

/** What a client needs from a kubeconfig's current context. */
export interface KubeconfigCluster {
  /** `https://127.0.0.1:6443` */
  readonly server: string;
  /** The user's bearer token. */
  readonly token?: string;
  /** The cluster CA bundle, base64 of PEM, as the kubeconfig stores it. */
  readonly certificateAuthorityData?: string;
  /** The user's client certificate (base64 of PEM), for https with mutual TLS. */
  readonly clientCertificateData?: string;
  /** The private key of `clientCertificateData` (base64 of PEM). */
  readonly clientKeyData?: string;
  readonly insecureSkipTlsVerify?: boolean;
  /** The context's default namespace. */
  readonly namespace?: string;
}

/**
 * Reads the current context of a kubeconfig (YAML or JSON text): its cluster's server and CA and
 * its user's token or client certificate (`client-certificate-data` and `client-key-data`).
 * `context` picks another context than `current-context`. Throws a SyntaxError naming what is
 * missing when the text is not a usable kubeconfig, or when it gives a client certificate
 * without its key (or the reverse), as client-go does. Certificate and key files, exec plugins
 * and token files are not supported (gantry writes data fields).
 */
export function loadKubeconfig(text: string, context?: string): KubeconfigCluster {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (error: unknown) {
    throw new SyntaxError(`Cannot load kubeconfig: ${messageOf(error)}`, { cause: error });
  }
  if (!isPlainObject(doc)) throw new SyntaxError("Cannot load kubeconfig: it is not a mapping");
  const contextName = context ?? stringField(doc, "current-context");
  if (contextName === undefined || contextName === "") {
    throw new SyntaxError("Cannot load kubeconfig: current-context is not set");
  }
  const ctx = named(doc, "contexts", contextName, "context");
  const clusterName = stringField(ctx, "cluster");
  if (clusterName === undefined) {
    throw new SyntaxError(
      `Cannot load kubeconfig: context ${JSON.stringify(contextName)} names no cluster`,
    );
  }
  const cluster = named(doc, "clusters", clusterName, "cluster");
  const server = stringField(cluster, "server");
  if (server === undefined || server === "") {
    throw new SyntaxError(
      `Cannot load kubeconfig: cluster ${JSON.stringify(clusterName)} has no server`,
    );
  }
  const userName = stringField(ctx, "user");
  const user = userName === undefined ? {} : named(doc, "users", userName, "user");
  const token = stringField(user, "token");
  const ca = stringField(cluster, "certificate-authority-data");
  const insecure = cluster["insecure-skip-tls-verify"];
  const namespace = stringField(ctx, "namespace");
  const cert = stringField(user, "client-certificate-data") ?? "";
  const key = stringField(user, "client-key-data") ?? "";
  if ((cert === "") !== (key === "")) {
    throw new SyntaxError(
      `Cannot load kubeconfig: user ${JSON.stringify(userName)} has client-${cert === "" ? "key" : "certificate"}-data without client-${cert === "" ? "certificate" : "key"}-data`,
    );
  }
  return {
    server,
    ...(token === undefined || token === "" ? {} : { token }),
    ...(ca === undefined || ca === "" ? {} : { certificateAuthorityData: ca }),
    ...(cert === "" ? {} : { clientCertificateData: cert, clientKeyData: key }),
    ...(insecure === true ? { insecureSkipTlsVerify: true } : {}),
    ...(namespace === undefined || namespace === "" ? {} : { namespace }),
  };
}

/**
 * Decodes `certificate-authority-data` (or another `*-data` field: `client-certificate-data`,
 * `client-key-data`) into the PEM text a TLS connection takes.
 */
export function decodeCertificateAuthority(data: string): string {
  return Buffer.from(data, "base64").toString("utf8");
}

/** The `inner` mapping of the entry called `name` in the list `listKey`. */
function named(
  doc: Record<string, unknown>,
  listKey: string,
  name: string,
  inner: string,
): Record<string, unknown> {
  const list = doc[listKey];
  const entry = Array.isArray(list)
    ? list.find((item: unknown) => isPlainObject(item) && item["name"] === name)
    : undefined;
  if (!isPlainObject(entry)) {
    throw new SyntaxError(
      `Cannot load kubeconfig: ${listKey} has no entry named ${JSON.stringify(name)}`,
    );
  }
  const value = entry[inner];
  if (!isPlainObject(value)) {
    throw new SyntaxError(
      `Cannot load kubeconfig: ${listKey} entry ${JSON.stringify(name)} has no ${inner}`,
    );
  }
  return value;
}

function stringField(object: Record<string, unknown>, key: string): string | undefined {
  const value = object[key];
  return typeof value === "string" ? value : undefined;
}

function messageOf(error: unknown): string {
  return errorMessage(error);
}
