export { type CachedObject, newCachedObject, withResourceVersion } from "./cached-object.ts";
export {
  type CacheEvent,
  type CacheIndexFunc,
  ResourceCache,
  type WatchFilter,
  type WatchSink,
} from "./resource-cache.ts";
export { WatchCache, type WatchCacheOptions } from "./watch-cache.ts";
