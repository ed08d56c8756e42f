/**
 * Byte-level helpers that work the same in Node and in browsers (the dashboard bundles api/,
 * which validates sizes in bytes as upstream does): no `Buffer`.
 */

/** The length of `text` encoded as UTF-8, as Go's `len(string)` counts it. */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      // A surrogate pair is one code point of four bytes.
      bytes += 4;
      i++;
    } else bytes += 3; // Other BMP code points, and lone surrogates (encoded as U+FFFD).
  }
  return bytes;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

const base64Alphabet = /[A-Za-z0-9+/\-_]/;

/**
 * How many bytes `text` decodes to as base64: every alphabet character up to the first `=`
 * carries six bits, and a trailing partial byte is dropped. Characters outside the alphabet
 * (whitespace) are skipped, as Node's decoder skips them.
 */
export function base64DecodedLength(text: string): number {
  let sextets = 0;
  for (const char of text) {
    if (char === "=") break;
    if (base64Alphabet.test(char)) sextets++;
  }
  return Math.floor((sextets * 6) / 8);
}

/** `text` as UTF-8, base64-encoded with padding (Go's `base64.StdEncoding`). */
export function utf8ToBase64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  // In chunks: String.fromCharCode takes its bytes as arguments.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}
