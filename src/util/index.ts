export { base64DecodedLength, utf8ByteLength, utf8ToBase64 } from "./bytes.ts";
export { type Clock, rfc3339, rfc3339Micro, systemClock } from "./clock.ts";
export { deepCopy, jsonCopy } from "./copy.ts";
export { formatDuration, parseDuration } from "./duration.ts";
export { Fifo } from "./fifo.ts";
export { deepFreeze } from "./freeze.ts";
export { jsonEqual } from "./json-equal.ts";
export {
  discardLogger,
  type JsonLoggerOptions,
  type LineSink,
  type LogFields,
  type Logger,
  newJsonLogger,
} from "./logger.ts";
export { type Random, seededRandom, systemRandom } from "./random.ts";
export { lowerBound, SortedKeys } from "./sorted-keys.ts";
export {
  assertNever,
  type DeepReadonly,
  errorMessage,
  isPlainObject,
  type Json,
  type JsonObject,
} from "./types.ts";
