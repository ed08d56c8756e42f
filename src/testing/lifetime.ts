import { setMaxListeners } from "node:events";

/**
 * The AbortController of components running for a whole test, as `gantry up` runs them until
 * shutdown: every informer and controller they start waits on its one signal, so more than
 * Node's ten abort listeners at once is normal there, not a leak (the composition roots in
 * src/cmd lift the limit the same way).
 */
export function componentLifetime(): AbortController {
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  return stop;
}
