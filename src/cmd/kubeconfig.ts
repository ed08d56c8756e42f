/** The kubeconfigs gantry writes: usable as-is by kubectl, client-node 1.x and Python. */
export interface KubeconfigOptions {
  readonly server: string;
  /** base64 of the cluster CA's PEM; without it the cluster is `insecure-skip-tls-verify`. */
  readonly caData?: string;
  /** A bearer token for the user. @default none */
  readonly token?: string;
  /** base64 of the user's client certificate and key (PEM), as kubeadm's admin.conf. */
  readonly clientCertificateData?: string;
  readonly clientKeyData?: string;
  /** The user entry's name. @default "gantry-admin" */
  readonly user?: string;
  /** The context's name. @default "gantry" */
  readonly context?: string;
}

/** One cluster (`gantry`), one user and one context in the `default` namespace. */
export function renderKubeconfig(options: KubeconfigOptions): string {
  const cluster =
    options.caData === undefined
      ? `    server: ${options.server}\n    insecure-skip-tls-verify: true`
      : `    server: ${options.server}\n    certificate-authority-data: ${options.caData}`;
  const user = yamlString(options.user ?? "gantry-admin");
  const context = yamlString(options.context ?? "gantry");
  const credentials = [
    ...(options.clientCertificateData === undefined
      ? []
      : [`    client-certificate-data: ${options.clientCertificateData}`]),
    ...(options.clientKeyData === undefined
      ? []
      : [`    client-key-data: ${options.clientKeyData}`]),
    ...(options.token === undefined ? [] : [`    token: ${options.token}`]),
  ];
  return [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    "- name: gantry",
    "  cluster:",
    cluster,
    "users:",
    `- name: ${user}`,
    credentials.length === 0 ? "  user: {}" : "  user:",
    ...credentials,
    "contexts:",
    `- name: ${context}`,
    "  context:",
    "    cluster: gantry",
    `    user: ${user}`,
    "    namespace: default",
    `current-context: ${context}`,
    "",
  ].join("\n");
}

/** A YAML scalar for a name: plain when it is plainly safe, else JSON-quoted (valid YAML). */
function yamlString(value: string): string {
  return /^[A-Za-z0-9][A-Za-z0-9._@/-]*$/.test(value) ? value : JSON.stringify(value);
}
