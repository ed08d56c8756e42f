import { StringDecoder } from "node:string_decoder";

/**
 * Splits a byte stream into lines as they complete, for newline-delimited JSON (watch streams).
 * UTF-8 characters and lines may span chunks; empty lines are skipped; a final line without a
 * newline is still yielded when the stream ends.
 */
export async function* splitLines(
  chunks: AsyncIterable<Uint8Array | string>,
): AsyncGenerator<string, void, undefined> {
  const decoder = new StringDecoder("utf8");
  let pending = "";
  for await (const chunk of chunks) {
    const text = typeof chunk === "string" ? chunk : decoder.write(chunk);
    if (!text.includes("\n")) {
      // Most of one large object: no line is complete yet, so do not rescan what is pending.
      pending += text;
      continue;
    }
    const lines = (pending + text).split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      const trimmed = line.trim();
      if (trimmed !== "") yield trimmed;
    }
  }
  const rest = (pending + decoder.end()).trim();
  if (rest !== "") yield rest;
}
