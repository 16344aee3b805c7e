/** The time the server's rules read: injected (STYLE §2), so tests can set it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
