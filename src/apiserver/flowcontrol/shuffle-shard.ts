/**
 * Shuffle sharding, as upstream's `shufflesharding.Dealer`: a flow's hash picks a "hand" of
 * distinct queues from the level's "deck", so two flows rarely share all their queues and one
 * flow cannot fill every queue of a level.
 */

/** The largest hash `flowHash` returns plus one: 2^52, exact in a double. */
const hashRange = 2 ** 52;

/**
 * A 52-bit hash of `text` (two 32-bit FNV-1a lanes with different seeds), stable across runs
 * and processes, so a flow keeps its queues.
 */
export function flowHash(text: string): number {
  let low = 0x811c9dc5;
  let high = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    low = Math.imul(low ^ c, 0x01000193) >>> 0;
    high = Math.imul(high ^ c, 0x01000193) >>> 0;
  }
  return ((high & 0xfffff) * 2 ** 32 + low) % hashRange;
}

/**
 * The `handSize` distinct queue indices in `[0, deckSize)` that `hash` selects. The hash is
 * read as digits in a mixed radix (deckSize, deckSize-1, …): the i-th digit picks the i-th of
 * the queues not picked yet, so every hand is equally likely for a uniform hash.
 * Throws RangeError unless 1 <= handSize <= deckSize.
 */
export function dealHand(hash: number, deckSize: number, handSize: number): number[] {
  if (!Number.isSafeInteger(handSize) || handSize < 1 || handSize > deckSize) {
    throw new RangeError(
      `Cannot deal a hand of ${handSize} from ${deckSize} queues: the hand size must be between 1 and the number of queues`,
    );
  }
  const hand: number[] = [];
  /** `hand`, sorted: for mapping a digit to the n-th queue not yet taken. */
  const taken: number[] = [];
  let rest = Math.floor(hash);
  for (let i = 0; i < handSize; i++) {
    const radix = deckSize - i;
    let card = rest % radix;
    rest = Math.floor(rest / radix);
    for (const t of taken) {
      if (t <= card) card++;
      else break;
    }
    hand.push(card);
    const at = taken.findIndex((t) => t > card);
    taken.splice(at < 0 ? taken.length : at, 0, card);
  }
  return hand;
}
