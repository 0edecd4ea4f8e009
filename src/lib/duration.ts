// Durations in settings are written the way people say them: 0ms, 50ms, 5s, 5m, 2h, 1d.
const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^(\d{1,9})(ms|s|m|h|d)$/;

/** Milliseconds, or undefined when the text is not a duration. */
export function parseDuration(text: string): number | undefined {
  const match = DURATION.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * UNITS[match[2]!]!;
}

/** A comma-separated list of durations, or undefined when any item is malformed or the list is empty. */
export function parseDurationList(text: string): number[] | undefined {
  const items = text.split(',').map((item) => parseDuration(item));
  if (items.length === 0 || items.some((ms) => ms === undefined)) return undefined;
  return items as number[];
}

/** "1d 2h", "5m", "50ms": the inverse of parseDuration for messages and logs. */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${ms}ms`;
  const parts: string[] = [];
  let rest = ms;
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1_000],
  ] as const) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
  }
  return parts.join(' ');
}
