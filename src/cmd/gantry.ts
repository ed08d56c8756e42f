import { parseArgs } from "node:util";
import { newJsonLogger } from "../util/index.ts";
import { startAllInOne } from "./all-in-one.ts";

const usage = `Usage: gantry <command> [options]

Commands:
  up    Start the all-in-one control plane (API server on an embedded store)

Options for up:
  --data-dir DIR       Where state and the kubeconfig live (default ./.gantry)
  --port P             Port to listen on (default 6443; 0 picks a free one)
  --address A          Address to bind (default 127.0.0.1)
  --storage KIND       memory | sqlite (default sqlite)
  --v N                Log verbosity (default 0)
`;

async function up(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      "data-dir": { type: "string", default: "./.gantry" },
      port: { type: "string", default: "6443" },
      address: { type: "string", default: "127.0.0.1" },
      storage: { type: "string", default: "sqlite" },
      v: { type: "string", default: "0" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(usage);
    return;
  }
  const storage = values.storage;
  if (storage !== "memory" && storage !== "sqlite") {
    throw new Error(
      `Cannot use storage "${storage}": choose memory or sqlite (etcd comes in a later release)`,
    );
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`Cannot listen on port "${values.port}": give a number from 0 to 65535`);
  }
  const logger = newJsonLogger((line) => process.stderr.write(`${line}\n`), {
    verbosity: Number(values.v),
  });
  const plane = await startAllInOne({
    dataDir: values["data-dir"],
    port,
    address: values.address,
    storage,
    logger,
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

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case "up":
      await up(rest);
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
  process.exit(1);
});
