/**
 * Service accounts in the API server: the `--service-account-*` settings, the token issuer they
 * make (signing key in DATA_DIR/pki), and the `default` ServiceAccount of each namespace the
 * cluster starts with, so pods created right after start-up are admitted before the controller
 * manager has run.
 */

import { ApiError, type KubeObject } from "../api/index.ts";
import {
  type ApiServer,
  defaultServiceAccountIssuer,
  newServiceAccountTokens,
  type ServiceAccountTokens,
} from "../apiserver/index.ts";
import { type Clock, type Logger, parseDuration } from "../util/index.ts";
import { ensureServiceAccountKey } from "./service-account-key.ts";
import { UsageError } from "./usage-error.ts";

/** What the `--service-account-*` flags say. */
export interface ServiceAccountSettings {
  /** `--service-account-issuer`: the `iss` of tokens, and their default audience. */
  readonly issuer: string;
  /** `--service-account-max-token-expiration` in seconds; 0 for no maximum. */
  readonly maxTokenExpirationSeconds: number;
  /** `--service-account-signing-key-file`: sign with this key instead of DATA_DIR/pki/sa.key. */
  readonly signingKeyFile?: string;
  /** Whether the ServiceAccount admission plugin runs (`--disable-admission-plugins`). */
  readonly admission: boolean;
}

export const serviceAccountFlags = {
  "service-account-issuer": { type: "string", default: defaultServiceAccountIssuer },
  "service-account-max-token-expiration": { type: "string", default: "0" },
  "service-account-signing-key-file": { type: "string" },
} as const;

export const serviceAccountFlagsUsage = `  --service-account-issuer URL
                       The issuer (iss) of service account tokens and their default
                       audience (default ${defaultServiceAccountIssuer})
  --service-account-max-token-expiration DURATION
                       The longest lifetime a TokenRequest gets, between 1h and 2^32s;
                       longer requests are shortened (default 0: no maximum)
  --service-account-signing-key-file FILE
                       The PEM private key (RSA or ECDSA) that signs service account
                       tokens (default DATA_DIR/pki/sa.key, generated on first start;
                       several API servers on one etcd must share one key)
`;

type Values = { readonly [K in keyof typeof serviceAccountFlags]?: string | undefined };

/** Checks the flags as kube-apiserver does; a UsageError names the first wrong one. */
export function serviceAccountSettings(values: Values, admission: boolean): ServiceAccountSettings {
  const issuer = values["service-account-issuer"] ?? defaultServiceAccountIssuer;
  if (issuer === "") {
    throw new UsageError("Cannot use an empty --service-account-issuer");
  }
  if (issuer.includes(":") && !isUrl(issuer)) {
    throw new UsageError(
      `Cannot use --service-account-issuer "${issuer}": it contains a ':' but is not a valid URL`,
    );
  }
  const maxText = values["service-account-max-token-expiration"] ?? "0";
  const maxMs = parseDuration(maxText);
  if (maxMs === undefined || maxMs < 0) {
    throw new UsageError(
      `Cannot use --service-account-max-token-expiration "${maxText}": give a duration such as 24h`,
    );
  }
  const maxSeconds = Math.floor(maxMs / 1000);
  if (maxSeconds !== 0 && (maxSeconds < 3600 || maxSeconds > 2 ** 32)) {
    throw new UsageError(
      "Cannot use --service-account-max-token-expiration: the service-account-max-token-expiration must be between 1 hour and 2^32 seconds",
    );
  }
  const signingKeyFile = values["service-account-signing-key-file"];
  return {
    issuer,
    maxTokenExpirationSeconds: maxSeconds,
    ...(signingKeyFile === undefined ? {} : { signingKeyFile }),
    admission,
  };
}

function isUrl(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch (error: unknown) {
    if (error instanceof TypeError) return false;
    throw error;
  }
}

/** The token issuer of `settings`, its key loaded (or made) in `pkiDir`. */
export async function newServiceAccountIssuer(
  settings: ServiceAccountSettings,
  deps: {
    readonly pkiDir: string;
    readonly clock: Clock;
    readonly logger: Logger;
    readonly progress: (line: string) => void;
  },
): Promise<ServiceAccountTokens> {
  const key = await ensureServiceAccountKey({
    dir: deps.pkiDir,
    progress: deps.progress,
    ...(settings.signingKeyFile === undefined ? {} : { signingKeyFile: settings.signingKeyFile }),
  });
  return newServiceAccountTokens({
    key,
    issuer: settings.issuer,
    maxExpirationSeconds: settings.maxTokenExpirationSeconds,
    clock: deps.clock,
    logger: deps.logger,
  });
}

/** The namespaces `bootstrap` creates, each of which gets its `default` ServiceAccount. */
const bootstrapNamespaces = ["default", "kube-system", "kube-public", "kube-node-lease"];

/**
 * Creates the `default` ServiceAccount in each bootstrap namespace where it is missing (the
 * serviceaccount controller keeps it there afterwards). Safe with several API servers.
 */
export async function ensureDefaultServiceAccounts(server: ApiServer): Promise<void> {
  const accounts = server.store("", "v1", "serviceaccounts");
  if (accounts === undefined) return;
  for (const namespace of bootstrapNamespaces) {
    try {
      await accounts.get(namespace, "default");
      continue;
    } catch (error: unknown) {
      if (!(error instanceof ApiError && error.reason === "NotFound")) throw error;
    }
    try {
      await accounts.create(namespace, { metadata: { name: "default" } } as KubeObject, {
        user: { username: "system:apiserver", groups: ["system:masters"] },
        dryRun: false,
        fieldManager: "gantry-bootstrap",
        warnings: [],
        subresource: "",
      });
    } catch (error: unknown) {
      if (!(error instanceof ApiError && error.reason === "AlreadyExists")) throw error;
    }
  }
}
