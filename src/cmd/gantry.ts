import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import {
  type ClusterConfig,
  ClusterConfigError,
  defaultClusterConfig,
  defaultNodeCount,
  parseClusterConfig,
} from "../kubelet/index.ts";
import { newJsonLogger } from "../util/index.ts";
import { plainHttpRefusal, startAllInOne } from "./all-in-one.ts";
import { runCpusCommand } from "./cpus-command.ts";
import { runDrainPlanCommand } from "./drain-plan-command.ts";
import { runNodeCommand } from "./node-command.ts";
import { isLoopbackAddress } from "./tls.ts";
import { runTopologyCommand } from "./topology-command.ts";

const usage = `Usage: gantry <command> [options]

Commands:
  up    Start the all-in-one control plane (API server on an embedded store)
  node  fail NAME | recover NAME: take an emulated node's kubelet down or bring it back
        (see 'gantry node --help')
  cpus  take | allocate | compare | show: plan CPU pinning as the kubelet's static CPU manager
        does it, on any topology (see 'gantry cpus --help')
  topology  discover | presets | show: read this machine's CPU topology from sysfs as
        cAdvisor does, list presets, show a topology (see 'gantry topology --help')
  drain-plan NODE [--execute] [-o json]: which pods of NODE each budget lets go, which
        pod groups an eviction would break, and a group-preserving eviction order
        (see 'gantry drain-plan --help')

Options for up:
  --data-dir DIR       Where state and the kubeconfig live (default ./.gantry)
  --port P             Port to listen on (default 6443; 0 picks a free one)
  --address A          Address to bind (default 127.0.0.1). Plain http is allowed only on
                       a loopback address; any other address needs --tls
  --tls                Serve https: generate (or reuse) a CA, a serving certificate and an
                       admin bearer token in DATA_DIR/pki, and require the token
  --tls-san NAME       Another DNS name or IP address for the serving certificate
                       (repeatable, or comma-separated); needs --tls
  --storage KIND       memory | sqlite (default sqlite)
  --config FILE        Cluster config: node pools, their shapes and kubelet settings
                       (see examples/cluster.yaml)
  --nodes N            Run N default emulated nodes (default 3; not with --config)
  --max-requests-inflight N
                       Read-only requests served at once (default 400; 0 = no limit);
                       beyond it: 429 with Retry-After: 1. Watches are not counted
  --max-mutating-requests-inflight N
                       Mutating requests served at once (default 200; 0 = no limit)
  --gang-admission MODE
                       lenient | strict (default lenient). strict rejects at creation a pod
                       naming a PodGroup that does not exist, and a PodGroup whose Workload
                       or template does not exist (403 Forbidden)
  --v N                Log verbosity (default 0)
`;

/** A mistake in the command line: printed without a stack trace, exit code 2. */
class UsageError extends Error {
  override readonly name = "UsageError";
}

function parseUpArgs(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: {
        "data-dir": { type: "string", default: "./.gantry" },
        port: { type: "string", default: "6443" },
        address: { type: "string", default: "127.0.0.1" },
        tls: { type: "boolean", default: false },
        "tls-san": { type: "string", multiple: true, default: [] },
        storage: { type: "string", default: "sqlite" },
        config: { type: "string" },
        nodes: { type: "string" },
        "max-requests-inflight": { type: "string", default: "400" },
        "max-mutating-requests-inflight": { type: "string", default: "200" },
        "gang-admission": { type: "string", default: "lenient" },
        v: { type: "string", default: "0" },
        help: { type: "boolean", default: false },
      },
    });
  } catch (error: unknown) {
    // parseArgs rejects unknown options and missing values with a TypeError.
    if (error instanceof TypeError) throw new UsageError(error.message);
    throw error;
  }
}

async function up(argv: string[]): Promise<void> {
  const { values } = parseUpArgs(argv);
  if (values.help) {
    process.stdout.write(usage);
    return;
  }
  const tlsSans = values["tls-san"].flatMap((value) =>
    value
      .split(",")
      .map((name) => name.trim())
      .filter((name) => name !== ""),
  );
  if (!values.tls && tlsSans.length > 0) {
    throw new UsageError(
      "Cannot use --tls-san without --tls: it names the https certificate's hosts",
    );
  }
  if (!values.tls && !isLoopbackAddress(values.address)) {
    throw new UsageError(plainHttpRefusal(values.address));
  }
  const storage = values.storage;
  if (storage !== "memory" && storage !== "sqlite") {
    throw new UsageError(
      `Cannot use storage "${storage}": choose memory or sqlite (etcd comes in a later release)`,
    );
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`Cannot listen on port "${values.port}": give a number from 0 to 65535`);
  }
  const maxRequestsInFlight = inFlightLimit("max-requests-inflight", values);
  const maxMutatingRequestsInFlight = inFlightLimit("max-mutating-requests-inflight", values);
  const gangAdmission = values["gang-admission"];
  if (gangAdmission !== "lenient" && gangAdmission !== "strict") {
    throw new UsageError(
      `Cannot use --gang-admission "${gangAdmission}": choose lenient or strict`,
    );
  }
  const cluster = clusterConfigOf(values.config, values.nodes);
  const logger = newJsonLogger((line) => process.stderr.write(`${line}\n`), {
    verbosity: Number(values.v),
  });
  const plane = await startAllInOne({
    dataDir: values["data-dir"],
    port,
    address: values.address,
    storage,
    logger,
    maxRequestsInFlight,
    maxMutatingRequestsInFlight,
    gangAdmission,
    ...(values.tls ? { tls: { sans: tlsSans } } : {}),
    progress: (line) => process.stdout.write(`${line}\n`),
    components: { cluster, scheduler: true, controllers: true },
  });
  process.stdout.write(`kubeconfig: ${plane.kubeconfigPath}\n`);
  logger.info("gantry is ready", { url: plane.url, storage, kubeconfig: plane.kubeconfigPath });
  const shutdown = (signal: string): void => {
    logger.info("Shutting down", { signal });
    plane.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error("Shutdown failed", { error });
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", () => shutdown("SIGTERM"));
  process.once("SIGINT", () => shutdown("SIGINT"));
}

/** A `--max-*-inflight` value: a whole number, 0 for no limit. */
function inFlightLimit(
  flag: "max-requests-inflight" | "max-mutating-requests-inflight",
  values: Readonly<Record<typeof flag, string>>,
): number {
  const value = Number(values[flag]);
  if (!Number.isInteger(value) || value < 0) {
    throw new UsageError(
      `Cannot use --${flag} "${values[flag]}": give a whole number, 0 for no limit`,
    );
  }
  return value;
}

/** The node pools from `--config FILE`, or `--nodes N` default nodes (3 without either). */
function clusterConfigOf(file: string | undefined, nodes: string | undefined): ClusterConfig {
  if (file !== undefined && nodes !== undefined) {
    throw new UsageError("Cannot use --nodes with --config: set the pools' counts in the file");
  }
  if (file !== undefined) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error: unknown) {
      throw new UsageError(
        `Cannot read the cluster config ${file}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    try {
      return parseClusterConfig(text, { source: file });
    } catch (error: unknown) {
      if (error instanceof ClusterConfigError) throw new UsageError(error.message);
      throw error;
    }
  }
  const count = nodes === undefined ? defaultNodeCount : Number(nodes);
  if (!Number.isInteger(count) || count < 0) {
    throw new UsageError(`Cannot run "${nodes}" nodes: give a whole number, 0 or more`);
  }
  return defaultClusterConfig(count);
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case "up":
      await up(rest);
      return;
    case "node":
      process.exitCode = await runNodeCommand(rest, {
        out: (text) => process.stdout.write(text),
        err: (text) => process.stderr.write(text),
      });
      return;
    case "cpus":
      process.exitCode = await runCpusCommand(rest, {
        out: (text) => process.stdout.write(text),
        err: (text) => process.stderr.write(text),
      });
      return;
    case "drain-plan":
      process.exitCode = await runDrainPlanCommand(rest, {
        out: (text) => process.stdout.write(text),
        err: (text) => process.stderr.write(text),
      });
      return;
    case "topology":
      process.exitCode = await runTopologyCommand(rest, {
        out: (text) => process.stdout.write(text),
        err: (text) => process.stderr.write(text),
      });
      return;
    case undefined:
    case "help":
    case "--help":
    case "-h":
      process.stdout.write(usage);
      return;
    default:
      process.stderr.write(`gantry: unknown command "${command}"\n\n${usage}`);
      process.exitCode = 2;
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`gantry: ${error instanceof Error ? error.message : String(error)}\n`);
  if (error instanceof UsageError) process.stderr.write("Run 'gantry up --help' for usage.\n");
  process.exit(error instanceof UsageError ? 2 : 1);
});
