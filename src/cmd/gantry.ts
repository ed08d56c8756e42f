import { setMaxListeners } from "node:events";
import { parseArgs } from "node:util";
import { errorMessage, newJsonLogger } from "../util/index.ts";
import { startAllInOne } from "./all-in-one.ts";
import { runApiServerCommand } from "./apiserver-command.ts";
import { apiServerFlags, apiServerFlagsUsage, apiServerSettings } from "./apiserver-flags.ts";
import { runCertsCommand } from "./certs-command.ts";
import { clusterConfigOf } from "./cluster-config-file.ts";
import type { CommandIo } from "./component-command.ts";
import { runControllerManagerCommand } from "./controller-manager-command.ts";
import { runCpusCommand } from "./cpus-command.ts";
import { runDrainPlanCommand } from "./drain-plan-command.ts";
import { runKubeletCommand } from "./kubelet-command.ts";
import { runNodeCommand } from "./node-command.ts";
import { runQueueingCommand } from "./queueing-command.ts";
import { runSchedulerCommand } from "./scheduler-command.ts";
import { runTopologyCommand } from "./topology-command.ts";
import { parsingArgs, UsageError } from "./usage-error.ts";

const usage = `Usage: gantry <command> [options]

Commands:
  up    Start the all-in-one control plane (API server on an embedded store)
  apiserver   Run the API server alone; several can serve one etcd
        (see 'gantry apiserver --help')
  scheduler   Run the scheduler against an API server, leader-elected
        (see 'gantry scheduler --help')
  controller-manager  Run every controller against an API server, leader-elected
        (see 'gantry controller-manager --help')
  queueing    Run Kueue's plain-pod queueing controllers, leader-elected
        (see 'gantry queueing --help')
  kubelet     Run the emulated nodes of a cluster config against an API server
        (see 'gantry kubelet --help')
  certs issue --user U [--group G]...: sign a client certificate with the cluster CA of a
        --tls cluster and write a kubeconfig using it (see 'gantry certs --help')
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
${apiServerFlagsUsage}  --config FILE        Cluster config: node pools, their shapes and kubelet settings
                       (see examples/cluster.yaml)
  --nodes N            Run N default emulated nodes (default 3; not with --config)
  --component-threads  Run the scheduler, controllers, queueing and kubelets in worker
                       threads, leaving the API server a thread of its own
`;

/** `--component-threads` unless told otherwise (GANTRY_COMPONENT_THREADS=true|false). */
const componentThreadsDefault = process.env["GANTRY_COMPONENT_THREADS"] === "true";

function parseUpArgs(argv: string[]) {
  return parsingArgs(() =>
    parseArgs({
      args: argv,
      options: {
        ...apiServerFlags,
        config: { type: "string" },
        nodes: { type: "string" },
        "component-threads": { type: "boolean", default: componentThreadsDefault },
      },
    }),
  );
}

async function up(argv: string[]): Promise<void> {
  const { values } = parseUpArgs(argv);
  if (values.help) {
    process.stdout.write(usage);
    return;
  }
  const settings = apiServerSettings(values);
  const storage = settings.storage;
  const cluster = clusterConfigOf(values.config, values.nodes);
  const logger = newJsonLogger((line) => process.stderr.write(`${line}\n`), {
    verbosity: Number(values.v),
  });
  const plane = await startAllInOne({
    ...settings,
    logger,
    progress: (line) => process.stdout.write(`${line}\n`),
    components: {
      cluster,
      scheduler: true,
      controllers: true,
      threads: values["component-threads"],
      verbosity: Number(values.v),
    },
  });
  process.stdout.write(`kubeconfig: ${plane.kubeconfigPath}\n`);
  process.stdout.write(`dashboard: ${plane.url}/ui/\n`);
  logger.info("gantry is ready", { url: plane.url, storage, kubeconfig: plane.kubeconfigPath });
  const shutdown = (signal: string, code = 0): void => {
    logger.info("Shutting down", { signal });
    plane.close().then(
      () => process.exit(code),
      (error: unknown) => {
        logger.error("Shutdown failed", { error });
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", () => shutdown("SIGTERM"));
  process.once("SIGINT", () => shutdown("SIGINT"));
  // A component that died leaves a cluster without it: stop, as its own process would exit.
  void plane.components.failure.then((error) => {
    logger.error("A component failed; stopping", { error });
    shutdown("component failure", 1);
  });
}

const processIo: CommandIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** The long-running component commands: each runs until SIGTERM or SIGINT. */
const components: Readonly<
  Record<string, (argv: readonly string[], io: CommandIo, signal: AbortSignal) => Promise<number>>
> = {
  apiserver: runApiServerCommand,
  scheduler: runSchedulerCommand,
  "controller-manager": runControllerManagerCommand,
  queueing: runQueueingCommand,
  kubelet: runKubeletCommand,
};

/** Runs a component command until a signal stops it, then exits with its status. */
async function serve(
  run: (argv: readonly string[], io: CommandIo, signal: AbortSignal) => Promise<number>,
  argv: readonly string[],
): Promise<void> {
  const stop = new AbortController();
  // Every informer, watch and worker of the component listens on this one signal.
  setMaxListeners(0, stop.signal);
  process.once("SIGTERM", () => stop.abort());
  process.once("SIGINT", () => stop.abort());
  const code = await run(argv, processIo, stop.signal);
  // Pooled connections and timers of stopped parts must not keep the process alive.
  process.exit(code);
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const component = command === undefined ? undefined : components[command];
  if (component !== undefined) {
    await serve(component, rest);
    return;
  }
  switch (command) {
    case "up":
      await up(rest);
      return;
    case "certs":
      process.exitCode = await runCertsCommand(rest, processIo);
      return;
    case "node":
      process.exitCode = await runNodeCommand(rest, processIo);
      return;
    case "cpus":
      process.exitCode = await runCpusCommand(rest, processIo);
      return;
    case "drain-plan":
      process.exitCode = await runDrainPlanCommand(rest, processIo);
      return;
    case "topology":
      process.exitCode = await runTopologyCommand(rest, processIo);
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

// A reader that stops early (`gantry topology presets | head -3`) closes the pipe. A one-shot
// command then stops without a word, as kubectl does (Go's runtime ends it quietly on SIGPIPE),
// instead of crashing on the unhandled EPIPE; a server (`up`, a component) keeps serving and
// drops what it can no longer print. Any other write error is still thrown.
const serving = process.argv[2] === "up" || Object.hasOwn(components, process.argv[2] ?? "");
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    if (!serving) process.exit(0);
  });
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`gantry: ${errorMessage(error)}\n`);
  if (error instanceof UsageError) {
    const command = process.argv[2] ?? "up";
    process.stderr.write(`Run 'gantry ${command} --help' for usage.\n`);
  }
  process.exit(error instanceof UsageError ? 2 : 1);
});
