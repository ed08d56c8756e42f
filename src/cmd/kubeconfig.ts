/** The kubeconfig `gantry up` writes: usable as-is by kubectl, client-node 1.x and Python. */
export function renderKubeconfig(options: {
  server: string;
  token: string;
  caData?: string;
}): string {
  const cluster =
    options.caData === undefined
      ? `    server: ${options.server}\n    insecure-skip-tls-verify: true`
      : `    server: ${options.server}\n    certificate-authority-data: ${options.caData}`;
  return [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    "- name: gantry",
    "  cluster:",
    cluster,
    "users:",
    "- name: gantry-admin",
    "  user:",
    `    token: ${options.token}`,
    "contexts:",
    "- name: gantry",
    "  context:",
    "    cluster: gantry",
    "    user: gantry-admin",
    "    namespace: default",
    "current-context: gantry",
    "",
  ].join("\n");
}
