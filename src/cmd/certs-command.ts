/**
 * `gantry certs issue --user U [--group G]...`: signs a client certificate with the cluster CA
 * of a `--tls` data dir and writes a kubeconfig that uses it (as `kubeadm kubeconfig user`),
 * for team members and for kubelets run as their own processes.
 */
import { X509Certificate } from "node:crypto";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadKubeconfig } from "../client/index.ts";
import { errorMessage, systemClock } from "../util/index.ts";
import {
  type ClientSubject,
  clientCertificateDays,
  describe,
  issueClientCertificate,
  readCa,
} from "./client-certificates.ts";
import type { CommandIo } from "./component-command.ts";
import { renderKubeconfig } from "./kubeconfig.ts";

export const certsUsage = `Usage: gantry certs issue --user NAME [--group GROUP]... [options]

Sign a client certificate with the cluster CA of a gantry started with --tls, and write a
kubeconfig that uses it: the server and CA of DATA_DIR/kubeconfig, and the new certificate
and key (RSA 2048). The API server takes the user name from the certificate's CN and the
groups from its O values; RBAC decides what they may do. The kubeconfig goes to standard
output unless --out names a file; progress goes to standard error.

Options:
  --user NAME      The user name (the certificate's CN): alice, or system:node:NODE for a
                   kubelet
  --group GROUP    A group (an O value of the certificate); repeatable: --group team-a,
                   or --group system:nodes for a kubelet
  --days N         How long the certificate is valid, in days (default ${clientCertificateDays}); not
                   beyond the CA's own end
  --data-dir DIR   The data dir of the cluster (default ./.gantry): DIR/pki holds the CA
  --out FILE       Write the kubeconfig to FILE (mode 0600) instead of standard output

Examples:
  gantry certs issue --user alice --group team-a --out alice.kubeconfig
  kubectl --kubeconfig alice.kubeconfig get pods -n team-a
  gantry certs issue --user system:node:worker-1 --group system:nodes --out kubelet.kubeconfig
  gantry kubelet --kubeconfig kubelet.kubeconfig --nodes 2
`;

/** A mistake in the command line (exit code 2). */
class CertsUsageError extends Error {
  override readonly name = "CertsUsageError";
}

interface IssueArgs {
  readonly subject: ClientSubject;
  readonly days: number;
  readonly dataDir: string;
  readonly out: string | undefined;
}

const day = 24 * 60 * 60 * 1000;

/** Runs `gantry certs ARGS`; resolves to the exit code. */
export async function runCertsCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h") || argv[0] === "help") {
    io.out(certsUsage);
    return 0;
  }
  try {
    const args = parseIssueArgs(argv);
    return await issue(args, io);
  } catch (error: unknown) {
    io.err(`gantry certs: ${errorMessage(error)}\n`);
    if (error instanceof CertsUsageError) {
      io.err("Run 'gantry certs --help' for usage.\n");
      return 2;
    }
    return 1;
  }
}

function parseIssueArgs(argv: readonly string[]): IssueArgs {
  let parsed: ReturnType<typeof parseFlags>;
  try {
    parsed = parseFlags(argv);
  } catch (error: unknown) {
    // parseArgs rejects unknown options and missing values with a TypeError.
    if (error instanceof TypeError) throw new CertsUsageError(error.message);
    throw error;
  }
  const [action, ...extra] = parsed.positionals;
  if (action !== "issue") {
    throw new CertsUsageError(
      action === undefined
        ? "Missing a subcommand: issue"
        : `Unknown subcommand "${action}": use issue`,
    );
  }
  if (extra.length > 0) {
    throw new CertsUsageError(`Unexpected arguments ${JSON.stringify(extra)}`);
  }
  const user = parsed.values.user;
  if (user === undefined) {
    throw new CertsUsageError("Missing --user: the certificate names one user (its CN)");
  }
  checkName("--user", user);
  const groups = parsed.values.group ?? [];
  for (const group of groups) checkName("--group", group);
  const daysText = parsed.values.days ?? String(clientCertificateDays);
  const days = Number(daysText);
  if (!/^\d+$/.test(daysText) || !Number.isSafeInteger(days) || days < 1) {
    throw new CertsUsageError(
      `Cannot use --days "${daysText}": give a whole number of days, 1 or more`,
    );
  }
  return {
    subject: { user, groups },
    days,
    dataDir: parsed.values["data-dir"] ?? "./.gantry",
    out: parsed.values.out,
  };
}

function parseFlags(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      user: { type: "string" },
      group: { type: "string", multiple: true },
      days: { type: "string" },
      "data-dir": { type: "string" },
      out: { type: "string" },
    },
  });
}

/** A user or group name must be non-empty text without control characters. */
function checkName(flag: string, value: string): void {
  if (value === "") throw new CertsUsageError(`Cannot use an empty ${flag}`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it rejects
  if (/[\u0000-\u001f\u007f]/.test(value)) {
    throw new CertsUsageError(
      `Cannot use ${flag} ${JSON.stringify(value)}: it contains control characters`,
    );
  }
}

async function issue(args: IssueArgs, io: CommandIo): Promise<number> {
  const pkiDir = join(args.dataDir, "pki");
  const ca = readCa(pkiDir);
  if (ca === undefined) {
    throw new Error(
      `Cannot issue a certificate: there is no cluster CA in ${pkiDir}. Start the cluster with \`gantry up --tls --data-dir ${args.dataDir}\` (or \`gantry apiserver --tls\`) first, or point --data-dir at its data dir`,
    );
  }
  const kubeconfigPath = join(args.dataDir, "kubeconfig");
  let cluster: ReturnType<typeof loadKubeconfig>;
  try {
    cluster = loadKubeconfig(readFileSync(kubeconfigPath, "utf8"));
  } catch (error: unknown) {
    throw new Error(
      `Cannot read the server address from ${kubeconfigPath}: ${errorMessage(error)}. Start the cluster with \`gantry up --tls --data-dir ${args.dataDir}\` first`,
    );
  }
  if (cluster.certificateAuthorityData === undefined || !cluster.server.startsWith("https:")) {
    throw new Error(
      `Cannot issue a certificate for ${cluster.server}: the cluster serves plain http, where clients send no certificates. Restart it with --tls`,
    );
  }
  const now = systemClock.now();
  const caEnd = new Date(new X509Certificate(ca.certPem).validTo);
  const end = new Date(now.getTime() + args.days * day);
  if (end.getTime() > caEnd.getTime()) {
    throw new CertsUsageError(
      `Cannot issue a certificate valid ${args.days} days: the cluster CA ends on ${caEnd.toISOString()}, in ${Math.floor((caEnd.getTime() - now.getTime()) / day)} days`,
    );
  }
  io.err(
    `Generating an RSA 2048 key and a client certificate for ${describe(args.subject)}, valid ${args.days} days (until ${end.toISOString()})\n`,
  );
  const pair = await issueClientCertificate(ca, args.subject, { now, days: args.days });
  const text = renderKubeconfig({
    server: cluster.server,
    caData: cluster.certificateAuthorityData,
    clientCertificateData: Buffer.from(pair.certPem).toString("base64"),
    clientKeyData: Buffer.from(pair.keyPem).toString("base64"),
    user: args.subject.user,
    context: `${args.subject.user}@gantry`,
  });
  if (args.out === undefined) {
    io.out(text);
    return 0;
  }
  writeFileSync(args.out, text, { mode: 0o600 });
  chmodSync(args.out, 0o600);
  io.err(`Wrote the kubeconfig of ${describe(args.subject)} to ${args.out}\n`);
  io.out(`kubeconfig: ${args.out}\n`);
  return 0;
}
