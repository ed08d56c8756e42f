/**
 * api/ measures ConfigMap, Secret and annotation sizes with Node's `Buffer`, in functions the
 * dashboard never calls (the bundle leaves them out). Browsers have no `Buffer`: this declares
 * only the members those functions use, so the browser config can type-check api/ without
 * Node's types (which would let `process` or `Buffer` slip into dashboard code unnoticed).
 */
declare const Buffer: {
  byteLength(text: string): number;
  from(
    text: string,
    encoding: "base64" | "utf8",
  ): { readonly length: number; toString(encoding: "base64"): string };
};
