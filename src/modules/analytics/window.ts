// The reporting window: the last `days` UTC calendar days, today included. UTC has no daylight
// saving, so every day is exactly 24 h and day arithmetic on epoch milliseconds is exact.
const DAY_MS = 86_400_000;

export interface UtcWindow {
  /** Inclusive lower bound: 00:00 UTC of the first day, as the ISO string stored in viewed_at. */
  from: string;
  /** Inclusive upper bound: the moment of the request, one value shared by every query. */
  to: string;
  /** Every day of the window as YYYY-MM-DD, oldest first. */
  dates: string[];
}

export function utcWindow(now: Date, days: number): UtcWindow {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const start = today - (days - 1) * DAY_MS;
  const dates = Array.from({ length: days }, (_, i) =>
    new Date(start + i * DAY_MS).toISOString().slice(0, 10),
  );
  return { from: new Date(start).toISOString(), to: now.toISOString(), dates };
}
