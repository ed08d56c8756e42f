/** One media range of an Accept header with its parameters. */
export interface MediaRange {
  readonly type: string;
  readonly params: Readonly<Record<string, string>>;
}

/** Parses an Accept header into media ranges, in the order given. */
export function parseAccept(header: string | undefined): MediaRange[] {
  if (header === undefined || header.trim() === "") return [];
  return header.split(",").map((part) => {
    const [type = "", ...rest] = part.split(";").map((s) => s.trim());
    const params: Record<string, string> = {};
    for (const p of rest) {
      const eq = p.indexOf("=");
      if (eq > 0) params[p.slice(0, eq).trim()] = p.slice(eq + 1).trim();
    }
    return { type: type.toLowerCase(), params };
  });
}

/** Whether the client asks for a `meta.k8s.io/v1` (or v1beta1) Table. */
export function wantsTable(
  ranges: readonly MediaRange[],
): { version: string; includeObject: string } | undefined {
  for (const range of ranges) {
    if (range.params["as"] !== "Table" || range.params["g"] !== "meta.k8s.io") continue;
    const version = range.params["v"];
    if (version !== "v1" && version !== "v1beta1") continue;
    return { version, includeObject: range.params["includeObject"] ?? "Metadata" };
  }
  return undefined;
}

/** The aggregated discovery version the client asks for, if any (`v2` or `v2beta1`). */
export function wantsAggregatedDiscovery(
  ranges: readonly MediaRange[],
): "v2" | "v2beta1" | undefined {
  for (const range of ranges) {
    if (
      range.params["as"] !== "APIGroupDiscoveryList" ||
      range.params["g"] !== "apidiscovery.k8s.io"
    )
      continue;
    const version = range.params["v"];
    if (version === "v2" || version === "v2beta1") return version;
  }
  return undefined;
}

/** The media type of a Content-Type header, lowercased, without parameters. */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}
