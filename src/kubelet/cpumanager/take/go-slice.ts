/**
 * A model of Go's `[]int` append semantics: slices share a backing array until `append` outgrows
 * its capacity. Upstream's combination generator passes `append(accum, x)` down its recursion,
 * so a combination it handed out earlier can be overwritten by later ones; reproducing the
 * distributed allocator's choices exactly needs the same sharing.
 */

/** Go's malloc size classes (bytes) up to 32 KiB, for `roundupsize`. */
const sizeClasses = [
  8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256, 288, 320, 352,
  384, 416, 448, 480, 512, 576, 640, 704, 768, 896, 1024, 1152, 1280, 1408, 1536, 1792, 2048, 2304,
  2688, 3072, 3200, 3456, 4096, 4864, 5376, 6144, 6528, 6784, 6912, 8192, 9472, 9728, 10240, 10880,
  12288, 13568, 14336, 16384, 18432, 19072, 20480, 21760, 24576, 27264, 28672, 32768,
] as const;

const intSize = 8;

/** Go's `growslice` capacity for `[]int` (Go ≥ 1.20). */
function grownCapacity(oldCap: number, newLen: number): number {
  let newCap = oldCap;
  const doubled = newCap + newCap;
  if (newLen > doubled) newCap = newLen;
  else if (oldCap < 256) newCap = doubled;
  else {
    while (newCap < newLen) newCap += (newCap + 3 * 256) >> 2;
  }
  const bytes = newCap * intSize;
  const rounded = sizeClasses.find((c) => c >= bytes) ?? Math.ceil(bytes / 8192) * 8192;
  return Math.floor(rounded / intSize);
}

/** A slice header: a shared backing array, a length and a capacity. */
export interface GoSlice {
  readonly array: number[];
  readonly length: number;
  readonly capacity: number;
}

export const emptySlice = (): GoSlice => ({ array: [], length: 0, capacity: 0 });

/** `append(s, value)`. */
export function goAppend(slice: GoSlice, value: number): GoSlice {
  if (slice.length < slice.capacity) {
    slice.array[slice.length] = value;
    return { array: slice.array, length: slice.length + 1, capacity: slice.capacity };
  }
  const capacity = grownCapacity(slice.capacity, slice.length + 1);
  const array = slice.array.slice(0, slice.length);
  array.push(value);
  return { array, length: slice.length + 1, capacity };
}

/** The elements the slice shows now. */
export function goValues(slice: GoSlice): number[] {
  return slice.array.slice(0, slice.length);
}

/**
 * Upstream's `iterateCombinations`: every k-subset of `items` in lexicographic order, built with
 * `append` on shared arrays. `visit` returns `true` to stop.
 */
export function iterateCombinations(
  items: readonly number[],
  k: number,
  visit: (combo: GoSlice) => boolean,
): void {
  if (k < 1) return;
  const helper = (left: number, start: number, accum: GoSlice): boolean => {
    if (left === 0) return visit(accum);
    for (let i = start; i <= items.length - left; i++) {
      if (helper(left - 1, i + 1, goAppend(accum, items[i] as number))) return true;
    }
    return false;
  };
  helper(k, 0, emptySlice());
}
