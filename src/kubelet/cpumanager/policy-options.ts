/**
 * The static policy's options (`cpuManagerPolicyOptions`), as upstream's `policy_options.go`
 * (1.34+): availability by feature gate, `strconv.ParseBool` values, conflicts, and the checks
 * against the machine and the Topology Manager, all with upstream's messages.
 */
import type { CpuTopology } from "./topology/topology.ts";

export const fullPcpusOnlyOption = "full-pcpus-only";
export const distributeCpusAcrossNumaOption = "distribute-cpus-across-numa";
export const alignBySocketOption = "align-by-socket";
export const distributeCpusAcrossCoresOption = "distribute-cpus-across-cores";
export const strictCpuReservationOption = "strict-cpu-reservation";
export const preferAlignByUncoreCacheOption = "prefer-align-cpus-by-uncorecache";
/** KEP-4800's name for `prefer-align-cpus-by-uncorecache`, accepted as an alias. */
export const alignByUncoreCacheAlias = "align-cpus-by-uncorecache";

const alphaOptions: readonly string[] = [alignBySocketOption, distributeCpusAcrossCoresOption];
const betaOptions: readonly string[] = [
  strictCpuReservationOption,
  distributeCpusAcrossNumaOption,
  preferAlignByUncoreCacheOption,
  alignByUncoreCacheAlias,
];
const stableOptions: readonly string[] = [fullPcpusOnlyOption];

/** Every option name the static policy accepts, the alias last. */
export const staticPolicyOptionNames: readonly string[] = [
  fullPcpusOnlyOption,
  distributeCpusAcrossNumaOption,
  alignBySocketOption,
  distributeCpusAcrossCoresOption,
  strictCpuReservationOption,
  preferAlignByUncoreCacheOption,
  alignByUncoreCacheAlias,
];

/** Parsed options (upstream `StaticPolicyOptions`); all default to false. */
export interface StaticPolicyOptions {
  readonly fullPhysicalCpusOnly: boolean;
  readonly distributeCpusAcrossNuma: boolean;
  readonly alignBySocket: boolean;
  readonly distributeCpusAcrossCores: boolean;
  readonly strictCpuReservation: boolean;
  readonly preferAlignByUncoreCache: boolean;
}

export const defaultStaticPolicyOptions: StaticPolicyOptions = Object.freeze({
  fullPhysicalCpusOnly: false,
  distributeCpusAcrossNuma: false,
  alignBySocket: false,
  distributeCpusAcrossCores: false,
  strictCpuReservation: false,
  preferAlignByUncoreCache: false,
});

/** The feature gates that guard option maturity. */
export interface PolicyOptionGates {
  /** `CPUManagerPolicyAlphaOptions`. @default false */
  readonly alphaOptions?: boolean;
  /** `CPUManagerPolicyBetaOptions`. @default true */
  readonly betaOptions?: boolean;
}

/** A configuration the CPU manager refuses; `message` is upstream's. */
export class PolicyOptionsError extends Error {
  override readonly name = "PolicyOptionsError";
}

/** Go's `strconv.ParseBool`. */
function parseBool(value: string): boolean | undefined {
  if (["1", "t", "T", "TRUE", "true", "True"].includes(value)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(value)) return false;
  return undefined;
}

/** Upstream's `CheckPolicyOptionAvailable`. */
function checkAvailable(name: string, gates: PolicyOptionGates): void {
  if (
    !alphaOptions.includes(name) &&
    !betaOptions.includes(name) &&
    !stableOptions.includes(name)
  ) {
    throw new PolicyOptionsError(`unknown CPU Manager Policy option: ${JSON.stringify(name)}`);
  }
  if (alphaOptions.includes(name) && gates.alphaOptions !== true) {
    throw new PolicyOptionsError(
      `CPU Manager Policy Alpha-level Options not enabled, but option ${JSON.stringify(name)} provided`,
    );
  }
  if (betaOptions.includes(name) && gates.betaOptions === false) {
    throw new PolicyOptionsError(
      `CPU Manager Policy Beta-level Options not enabled, but option ${JSON.stringify(name)} provided`,
    );
  }
}

const fieldOf: Readonly<Record<string, keyof StaticPolicyOptions>> = {
  [fullPcpusOnlyOption]: "fullPhysicalCpusOnly",
  [distributeCpusAcrossNumaOption]: "distributeCpusAcrossNuma",
  [alignBySocketOption]: "alignBySocket",
  [distributeCpusAcrossCoresOption]: "distributeCpusAcrossCores",
  [strictCpuReservationOption]: "strictCpuReservation",
  [preferAlignByUncoreCacheOption]: "preferAlignByUncoreCache",
  [alignByUncoreCacheAlias]: "preferAlignByUncoreCache",
};

/**
 * Upstream's `NewStaticPolicyOptions`: keys in the order given, then the conflicts. Throws
 * `PolicyOptionsError` with upstream's message.
 */
export function newStaticPolicyOptions(
  options: Readonly<Record<string, string>>,
  gates: PolicyOptionGates = {},
): StaticPolicyOptions {
  const opts: { -readonly [K in keyof StaticPolicyOptions]: boolean } = {
    ...defaultStaticPolicyOptions,
  };
  for (const [name, value] of Object.entries(options)) {
    checkAvailable(name, gates);
    const parsed = parseBool(value);
    if (parsed === undefined) {
      throw new PolicyOptionsError(
        `bad value for option ${JSON.stringify(name)}: strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`,
      );
    }
    const field = fieldOf[name];
    if (field !== undefined) opts[field] = parsed;
  }
  const conflict = (a: string, b: string): PolicyOptionsError =>
    new PolicyOptionsError(`static policy options ${a} and ${b} can not be used at the same time`);
  if (opts.fullPhysicalCpusOnly && opts.distributeCpusAcrossCores) {
    throw conflict(fullPcpusOnlyOption, distributeCpusAcrossCoresOption);
  }
  if (opts.distributeCpusAcrossNuma && opts.distributeCpusAcrossCores) {
    throw conflict(distributeCpusAcrossNumaOption, distributeCpusAcrossCoresOption);
  }
  if (opts.preferAlignByUncoreCache && opts.distributeCpusAcrossCores) {
    throw conflict(preferAlignByUncoreCacheOption, distributeCpusAcrossCoresOption);
  }
  if (opts.preferAlignByUncoreCache && opts.distributeCpusAcrossNuma) {
    throw conflict(preferAlignByUncoreCacheOption, distributeCpusAcrossNumaOption);
  }
  return opts;
}

/**
 * Upstream's `ValidateStaticPolicyOptions`: align-by-socket against the Topology Manager policy
 * and the machine. Throws `PolicyOptionsError`.
 */
export function validateStaticPolicyOptions(
  options: StaticPolicyOptions,
  topology: CpuTopology,
  topologyManagerPolicy: string,
): void {
  if (!options.alignBySocket) return;
  if (topologyManagerPolicy === "single-numa-node") {
    throw new PolicyOptionsError(
      `Topolgy manager single-numa-node policy is incompatible with CPUManager ${alignBySocketOption} policy option`,
    );
  }
  if (topology.numSockets > topology.numNumaNodes) {
    throw new PolicyOptionsError(
      "Align by socket is not compatible with hardware where number of sockets are more than number of NUMA",
    );
  }
}

/** `"full-pcpus-only=true,…"` for messages. */
export function formatOptions(options: StaticPolicyOptions): string {
  return Object.entries(fieldOf)
    .filter(([name]) => name !== alignByUncoreCacheAlias)
    .filter(([, field]) => options[field])
    .map(([name]) => `${name}=true`)
    .join(",");
}
