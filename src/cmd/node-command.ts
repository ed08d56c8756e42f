/**
 * `gantry node fail NAME` / `gantry node recover NAME`: takes an emulated node's kubelet down
 * (as if its machine died) or brings it back, through the API of a running `gantry up`: a merge
 * patch sets or removes the Node annotation `gantry.dev/fail: "true"`, which the kubelet fleet
 * obeys. The node lifecycle controller then does what it does to a real dead node.
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Node } from "../api/index.ts";
import { type HttpClient, isNotFound, nodesResource, TransportError } from "../client/index.ts";
import { failAnnotation, kubeletAnnotation, noKubelet } from "../kubelet/index.ts";
import { clientForKubeconfig } from "./kubeconfig-client.ts";

export const nodeUsage = `Usage: gantry node <fail|recover> NAME [options]

Take an emulated node's kubelet down, as if its machine died, or bring it back.

  fail NAME      The kubelet stops renewing its Lease and posting status, and stops
                 working on its pods. After the node monitor grace period (50s by
                 default) the node controller marks the node Unknown and taints it
                 node.kubernetes.io/unreachable; its pods are evicted once their
                 tolerations expire (300s unless the pod says otherwise)
  recover NAME   The kubelet posts status again: the node becomes Ready, the taints go

Options:
  --data-dir DIR      The data dir of the running gantry up (default ./.gantry); its
                      kubeconfig is DIR/kubeconfig
  --kubeconfig FILE   Use this kubeconfig instead
`;

/** Where the command writes: stdout and stderr of the process, or buffers in tests. */
export interface NodeCommandIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

/** A mistake in the command line (exit code 2). */
class NodeUsageError extends Error {
  override readonly name = "NodeUsageError";
}

type Action = "fail" | "recover";

function parseNodeArgs(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        "data-dir": { type: "string", default: "./.gantry" },
        kubeconfig: { type: "string" },
      },
    });
  } catch (error: unknown) {
    // parseArgs rejects unknown options and missing values with a TypeError.
    if (error instanceof TypeError) throw new NodeUsageError(error.message);
    throw error;
  }
}

function parse(argv: readonly string[]): { action: Action; node: string; kubeconfig: string } {
  const parsed = parseNodeArgs(argv);
  const [action, node, ...extra] = parsed.positionals;
  if (action !== "fail" && action !== "recover") {
    throw new NodeUsageError(
      action === undefined
        ? "Missing a subcommand: fail or recover"
        : `Unknown subcommand "${action}": use fail or recover`,
    );
  }
  if (node === undefined || node === "") throw new NodeUsageError("Missing the node name");
  if (extra.length > 0) {
    throw new NodeUsageError(`Unexpected arguments ${JSON.stringify(extra)}: give one node name`);
  }
  return {
    action,
    node,
    kubeconfig: parsed.values.kubeconfig ?? join(parsed.values["data-dir"], "kubeconfig"),
  };
}

function clientFor(kubeconfigPath: string): HttpClient {
  return clientForKubeconfig(kubeconfigPath, "node");
}

const doneText: Readonly<Record<Action, (node: string) => string>> = {
  fail: (node) =>
    `node/${node} failed: its kubelet stopped renewing its Lease and posting status. After the node monitor grace period the node controller marks it Unknown and taints it node.kubernetes.io/unreachable; its pods are evicted when their tolerations expire\n`,
  recover: (node) =>
    `node/${node} recovered: its kubelet posts status again; the node controller marks it Ready and removes the unreachable taints\n`,
};

/** Runs `gantry node ARGS`; resolves to the exit code. */
export async function runNodeCommand(argv: readonly string[], io: NodeCommandIo): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h") || argv[0] === "help") {
    io.out(nodeUsage);
    return 0;
  }
  let action: Action;
  let node: string;
  let client: HttpClient;
  try {
    const args = parse(argv);
    action = args.action;
    node = args.node;
    client = clientFor(args.kubeconfig);
  } catch (error: unknown) {
    io.err(`gantry node: ${error instanceof Error ? error.message : String(error)}\n`);
    if (error instanceof NodeUsageError) {
      io.err("Run 'gantry node --help' for usage.\n");
      return 2;
    }
    return 1;
  }
  try {
    const current = await client.get<Node>(nodesResource, undefined, node);
    const annotations = current.metadata.annotations ?? {};
    if (annotations[kubeletAnnotation] === noKubelet) {
      io.err(
        `gantry node: node/${node} has no emulated kubelet (${kubeletAnnotation}: ${noKubelet}), so there is none to ${action === "fail" ? "stop" : "restart"}\n`,
      );
      return 1;
    }
    const failed = annotations[failAnnotation] === "true";
    if (failed === (action === "fail")) {
      io.out(`node/${node} is already ${action === "fail" ? "failed" : "running"}\n`);
      return 0;
    }
    await client.patch(nodesResource, undefined, node, "merge", {
      metadata: { annotations: { [failAnnotation]: action === "fail" ? "true" : null } },
    });
    io.out(doneText[action](node));
    return 0;
  } catch (error: unknown) {
    if (isNotFound(error)) {
      io.err(
        `gantry node: ${error instanceof Error ? error.message : `nodes "${node}" not found`}\n`,
      );
    } else if (error instanceof TransportError) {
      io.err(
        `gantry node: cannot reach the API server at ${client.server} (${error.code}): is the cluster running? Start it with \`gantry up\`\n`,
      );
    } else {
      io.err(`gantry node: ${error instanceof Error ? error.message : String(error)}\n`);
    }
    return 1;
  } finally {
    client.close();
  }
}
