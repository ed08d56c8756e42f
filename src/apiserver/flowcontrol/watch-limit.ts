import { type ApiError, tooManyRequests } from "../../api/index.ts";
import type { UserInfo } from "../admission/index.ts";

/** An open watch counted against its user; `close` gives the count back (idempotent). */
export interface WatchTicket {
  close(): void;
}

/**
 * gantry's own cap on concurrent watches per user (`--max-watches-per-user`; upstream has none
 * and counts only a watch's initialisation against priority and fairness). Members of
 * `system:masters` are not counted, as the in-flight limit never turns them away.
 */
export interface WatchLimiter {
  /** Counts a new watch of `user`; the 429 ApiError when the user has `max` open already. */
  open(user: UserInfo): WatchTicket | ApiError;
  /** Watches open per user now. */
  openWatches(): ReadonlyMap<string, number>;
}

const privilegedGroup = "system:masters";
const unlimited: WatchTicket = { close: () => undefined };

/** A limiter allowing `max` concurrent watches per user name; 0 means no limit. */
export function newWatchLimiter(max: number): WatchLimiter {
  if (!Number.isSafeInteger(max) || max < 0) {
    throw new RangeError(
      `--max-watches-per-user must be a whole number, 0 for no limit, not ${max}`,
    );
  }
  const open = new Map<string, number>();
  return {
    open(user) {
      if (max === 0 || user.groups.includes(privilegedGroup)) return unlimited;
      const count = open.get(user.username) ?? 0;
      if (count >= max) {
        return tooManyRequests(
          `Cannot open another watch: user "${user.username}" has ${count} watches open, the most --max-watches-per-user allows`,
          { retryAfterSeconds: 1 },
        );
      }
      open.set(user.username, count + 1);
      return new Ticket(open, user.username);
    },
    openWatches: () => open,
  };
}

class Ticket implements WatchTicket {
  readonly #open: Map<string, number>;
  readonly #user: string;
  #held = true;

  constructor(open: Map<string, number>, user: string) {
    this.#open = open;
    this.#user = user;
  }

  close(): void {
    if (!this.#held) return;
    this.#held = false;
    const left = (this.#open.get(this.#user) ?? 1) - 1;
    if (left <= 0) this.#open.delete(this.#user);
    else this.#open.set(this.#user, left);
  }
}
