import { badRequest, type DeleteOptions } from "../../api/index.ts";
import { parseGoBool } from "../http/request-info.ts";
import type { WriteContext } from "../registry/generic/store.ts";
import type { RequestScope } from "./scope.ts";

/** `dryRun=All` (the only value upstream accepts). */
export function isDryRun(query: URLSearchParams): boolean {
  const values = query.getAll("dryRun");
  for (const value of values) {
    if (value !== "All") {
      throw badRequest(
        `Invalid dryRun parameter: dryRun: Unsupported value: ${JSON.stringify(value)}: supported values: "All"`,
      );
    }
  }
  return values.length > 0;
}

/** The field manager: the `fieldManager` query, else the User-Agent's first token, as upstream. */
export function fieldManagerOf(scope: RequestScope): string {
  const explicit = scope.query.get("fieldManager");
  if (explicit !== null && explicit !== "") {
    if (explicit.length > 128)
      throw badRequest("fieldManager: Too long: may not be more than 128 bytes");
    return explicit;
  }
  const agent = scope.req.headers["user-agent"] ?? "";
  const first = agent.split("/")[0]?.trim() ?? "";
  return first === "" ? "unknown" : first.slice(0, 128);
}

export function writeContextOf(
  scope: RequestScope,
  subresource: string,
  dryRun?: boolean,
): WriteContext {
  return {
    user: scope.user,
    dryRun: dryRun ?? isDryRun(scope.query),
    fieldManager: fieldManagerOf(scope),
    warnings: scope.warnings,
    subresource,
  };
}

/** DeleteOptions from the body (kubectl's way) merged over the query parameters. */
export function deleteOptionsOf(
  query: URLSearchParams,
  body: Record<string, unknown> | undefined,
): DeleteOptions {
  const options: DeleteOptions = {};
  const grace = query.get("gracePeriodSeconds");
  if (grace !== null && grace !== "")
    options.gracePeriodSeconds = parseInteger("gracePeriodSeconds", grace);
  const policy = query.get("propagationPolicy");
  if (policy !== null && policy !== "") options.propagationPolicy = parsePolicy(policy);
  const orphan = parseGoBool(query.get("orphanDependents"));
  if (orphan !== undefined) options.orphanDependents = orphan;
  const dryRun = query.getAll("dryRun");
  if (dryRun.length > 0) options.dryRun = dryRun;
  if (body === undefined) return options;
  if (body["gracePeriodSeconds"] !== undefined) {
    const g = body["gracePeriodSeconds"];
    if (typeof g !== "number" || !Number.isInteger(g))
      throw badRequest("gracePeriodSeconds must be an integer");
    options.gracePeriodSeconds = g;
  }
  if (body["propagationPolicy"] !== undefined)
    options.propagationPolicy = parsePolicy(String(body["propagationPolicy"]));
  if (typeof body["orphanDependents"] === "boolean")
    options.orphanDependents = body["orphanDependents"];
  if (Array.isArray(body["dryRun"])) options.dryRun = body["dryRun"].map(String);
  const pre = body["preconditions"];
  if (typeof pre === "object" && pre !== null) {
    const p = pre as Record<string, unknown>;
    options.preconditions = {};
    if (typeof p["uid"] === "string") options.preconditions.uid = p["uid"];
    if (typeof p["resourceVersion"] === "string")
      options.preconditions.resourceVersion = p["resourceVersion"];
  }
  if (options.orphanDependents !== undefined && options.propagationPolicy !== undefined) {
    throw badRequest(
      'DeleteOptions is invalid: propagationPolicy: Invalid value: "' +
        options.propagationPolicy +
        '": orphanDependents and deletionPropagation cannot be both set',
    );
  }
  for (const value of options.dryRun ?? []) {
    if (value !== "All")
      throw badRequest(
        `Invalid dryRun parameter: dryRun: Unsupported value: ${JSON.stringify(value)}: supported values: "All"`,
      );
  }
  if (options.gracePeriodSeconds !== undefined && options.gracePeriodSeconds < 0)
    options.gracePeriodSeconds = 1;
  return options;
}

function parseInteger(name: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n)) throw badRequest(`invalid ${name}: ${JSON.stringify(text)}`);
  return n;
}

function parsePolicy(text: string): "Orphan" | "Background" | "Foreground" {
  if (text === "Orphan" || text === "Background" || text === "Foreground") return text;
  throw badRequest(
    `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: ${JSON.stringify(text)}: supported values: "Foreground", "Background", "Orphan", "nil"`,
  );
}
