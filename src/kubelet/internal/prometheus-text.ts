/**
 * Prometheus' text exposition format (version 0.0.4), as the kubelet's `/metrics` writes it with
 * client_golang and component-base: families sorted by name, `# HELP` with the stability level
 * (`[ALPHA] …`), `# TYPE`, samples sorted by their labels, labels sorted by name. A family
 * without samples (a vector no label set was ever used with) is left out, as client_golang does.
 */

/** One metric family: a counter or a gauge with its samples. */
export interface MetricFamily {
  /** The full name, subsystem included (`kubelet_cpu_manager_pinning_requests_total`). */
  readonly name: string;
  /** Upstream's help text, without the stability prefix. */
  readonly help: string;
  readonly type: "counter" | "gauge";
  /** @default "ALPHA" */
  readonly stability?: "ALPHA" | "BETA" | "STABLE";
  readonly samples: readonly MetricSample[];
}

export interface MetricSample {
  /** Label name → value; `{}` for a metric without labels. */
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** The content type of the text format. */
export const prometheusTextContentType = "text/plain; version=0.0.4; charset=utf-8";

function escapeHelp(text: string): string {
  return text.replaceAll("\\", "\\\\").replaceAll("\n", "\\n");
}

function escapeLabel(text: string): string {
  return text.replaceAll("\\", "\\\\").replaceAll("\n", "\\n").replaceAll('"', '\\"');
}

/**
 * Go's `strconv.FormatFloat(v, 'g', -1, 64)`, which client_golang writes values with: the
 * shortest digits, in exponent form when the exponent is below -4 or at least 6 (`1e+06`).
 */
export function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Number.POSITIVE_INFINITY) return "+Inf";
  if (value === Number.NEGATIVE_INFINITY) return "-Inf";
  if (value === 0) return "0";
  const [mantissa = "", exponentText = "0"] = value.toExponential().split("e");
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 6) {
    const digits = String(Math.abs(exponent)).padStart(2, "0");
    return `${mantissa}e${exponent < 0 ? "-" : "+"}${digits}`;
  }
  return String(value);
}

function labelText(labels: Readonly<Record<string, string>>): string {
  const names = Object.keys(labels).sort();
  if (names.length === 0) return "";
  return `{${names.map((n) => `${n}="${escapeLabel(labels[n] ?? "")}"`).join(",")}}`;
}

/** Renders families in the text format (a trailing newline included; "" for none). */
export function renderPrometheusText(families: readonly MetricFamily[]): string {
  const lines: string[] = [];
  for (const family of [...families].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (family.samples.length === 0) continue;
    lines.push(`# HELP ${family.name} [${family.stability ?? "ALPHA"}] ${escapeHelp(family.help)}`);
    lines.push(`# TYPE ${family.name} ${family.type}`);
    const samples = family.samples.map((s) => ({ labels: labelText(s.labels), value: s.value }));
    samples.sort((a, b) => (a.labels < b.labels ? -1 : a.labels > b.labels ? 1 : 0));
    for (const s of samples) lines.push(`${family.name}${s.labels} ${formatValue(s.value)}`);
  }
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}

/** Parses the samples of a text exposition: `name{labels}` → value (tests and `gantry` tools). */
export function parsePrometheusText(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const space = line.lastIndexOf(" ");
    samples.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return samples;
}
