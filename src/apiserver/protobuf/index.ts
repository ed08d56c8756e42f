// The public surface of apiserver/protobuf: decoding `application/vnd.kubernetes.protobuf`
// request bodies (what kubectl 1.32+ generator commands send) into JSON objects.

export {
  type DecodeOptions,
  decodeProtobufObject,
  fallbackMediaTypes,
  protobufContentType,
} from "./decode.ts";
export { type ProtobufKind, protobufKinds } from "./registry.ts";
