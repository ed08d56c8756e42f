/**
 * `--admission-control-config-file`: kube-apiserver's AdmissionConfiguration
 * (`apiserver.config.k8s.io/v1`, YAML or JSON). gantry reads the PodSecurity plugin's entry, its
 * PodSecurityConfiguration given inline (`configuration`) or in a file of its own (`path`,
 * relative to the admission configuration file); other plugins' entries are accepted and unused.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import { fieldErrorString } from "../api/index.ts";
import {
  type PodSecurityConfiguration,
  parsePodSecurityConfiguration,
} from "../apiserver/index.ts";
import { errorMessage } from "../util/index.ts";
import { UsageError } from "./usage-error.ts";

const admissionApiVersions = [
  "apiserver.config.k8s.io/v1",
  "apiserver.config.k8s.io/v1alpha1",
  "apiserver.k8s.io/v1alpha1",
];

function readDocument(path: string, flag: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error: unknown) {
    throw new UsageError(`Cannot read ${flag} "${path}": ${errorMessage(error)}`);
  }
  try {
    return parseYaml(text) as unknown;
  } catch (error: unknown) {
    throw new UsageError(`Cannot parse ${flag} "${path}": ${errorMessage(error)}`);
  }
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * The PodSecurity configuration in the admission configuration file at `path`; `undefined` when
 * the file has no PodSecurity entry (the plugin's defaults apply: privileged everywhere). A
 * UsageError names the file and the field when anything is wrong.
 */
export function loadPodSecurityConfiguration(path: string): PodSecurityConfiguration | undefined {
  const flag = "--admission-control-config-file";
  const fail = (detail: string): never => {
    throw new UsageError(`Cannot use ${flag} "${path}": ${detail}`);
  };
  const doc = record(readDocument(path, flag)) ?? fail("expected an AdmissionConfiguration object");
  if (!admissionApiVersions.includes(String(doc["apiVersion"] ?? ""))) {
    fail(`apiVersion must be one of ${admissionApiVersions.join(", ")}`);
  }
  if (doc["kind"] !== "AdmissionConfiguration") fail("kind must be AdmissionConfiguration");
  const plugins = doc["plugins"] ?? [];
  if (!Array.isArray(plugins)) fail("plugins must be a list");
  const index = (plugins as unknown[]).findIndex((p) => record(p)?.["name"] === "PodSecurity");
  if (index < 0) return undefined;
  const plugin = record((plugins as unknown[])[index]) ?? {};
  const field = `plugins[${index}]`;
  if (plugin["configuration"] !== undefined) {
    return parsed(plugin["configuration"], `${field}.configuration.`, fail);
  }
  if (typeof plugin["path"] === "string" && plugin["path"] !== "") {
    const file = resolve(dirname(path), plugin["path"]);
    return parsed(readDocument(file, `${field}.path`), `${field}.path "${file}": `, fail);
  }
  return fail(`${field}: PodSecurity needs a configuration or a path`);
}

function parsed(
  value: unknown,
  prefix: string,
  fail: (detail: string) => never,
): PodSecurityConfiguration {
  const result = parsePodSecurityConfiguration(value);
  if ("errors" in result) {
    return fail(result.errors.map((e) => `${prefix}${fieldErrorString(e)}`).join("; "));
  }
  return result.configuration;
}
