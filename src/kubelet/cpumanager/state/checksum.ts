/**
 * The checkpoint checksum as the kubelet computes it (pkg/kubelet/checkpointmanager/checksum):
 * 32-bit FNV-1a over go-spew's `%#v` rendering of a pointer to the checkpoint struct with its
 * checksum set to 0 (`SortKeys`, `DisableMethods`, `SpewKeys`), stored in JSON as a uint64.
 */

/** FNV-1a, 32 bits, over the UTF-8 bytes of `text`. */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** Go's byte-wise string order, as spew's `SortKeys` sorts map keys. */
function goLess(a: string, b: string): number {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  }
  return x.length - y.length;
}

/** A `map[string]string` rendered by spew inside `%#v` (keys and values without types). */
function spewStringMap(map: Readonly<Record<string, string>>): string {
  const keys = Object.keys(map).sort(goLess);
  return `map[${keys.map((k) => `${k}:${map[k]}`).join(" ")}]`;
}

/** The v2 checkpoint's spew rendering (`entries`: pod UID → container → cpuset). */
export function spewCheckpointV2(
  policyName: string,
  defaultCpuSet: string,
  entries: Readonly<Record<string, Readonly<Record<string, string>>>>,
): string {
  const pods = Object.keys(entries).sort(goLess);
  const rendered = `map[${pods.map((p) => `${p}:${spewStringMap(entries[p] ?? {})}`).join(" ")}]`;
  return `(*state.CPUManagerCheckpoint){PolicyName:(string)${policyName} DefaultCPUSet:(string)${defaultCpuSet} Entries:(map[string]map[string]string)${rendered} Checksum:(checksum.Checksum)0}`;
}

/** The v1 checkpoint's rendering (`entries`: container id → cpuset), as upstream verifies it. */
export function spewCheckpointV1(
  policyName: string,
  defaultCpuSet: string,
  entries: Readonly<Record<string, string>>,
): string {
  return `(*state.CPUManagerCheckpoint){PolicyName:(string)${policyName} DefaultCPUSet:(string)${defaultCpuSet} Entries:(map[string]string)${spewStringMap(entries)} Checksum:(checksum.Checksum)0}`;
}

export function checksumV2(
  policyName: string,
  defaultCpuSet: string,
  entries: Readonly<Record<string, Readonly<Record<string, string>>>>,
): number {
  return fnv1a32(spewCheckpointV2(policyName, defaultCpuSet, entries));
}

export function checksumV1(
  policyName: string,
  defaultCpuSet: string,
  entries: Readonly<Record<string, string>>,
): number {
  return fnv1a32(spewCheckpointV1(policyName, defaultCpuSet, entries));
}
