/**
 * The JSON text of objects a write just returned, for answering the request with it: only for an
 * object nobody changes between the write and the answer, which the write handlers guarantee.
 */
const writtenTexts = new WeakMap<object, string>();

/** Remembers `text` as the JSON of `written` (nothing when there is no text). */
export function rememberWrittenJson(written: object, text: string | undefined): void {
  if (text !== undefined) writtenTexts.set(written, text);
}

/** The JSON text a write made of `written`, if it made one. */
export function writtenJsonOf(written: object): string | undefined {
  return writtenTexts.get(written);
}

/** What to answer a write with: the text the write made of `written`, else `written` itself. */
export function answerOf(written: object): string | object {
  return writtenTexts.get(written) ?? written;
}
