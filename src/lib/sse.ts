// Server-sent events (the text/event-stream format of the HTML standard): one frame per event,
// with its id (what the browser sends back as Last-Event-ID to resume), its name and JSON data.

export function sseFrame(id: number, event: string, data: unknown): string {
  // JSON.stringify never emits a raw newline, so the data is one `data:` line.
  return `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A comment line: keeps proxies from closing a quiet stream. */
export const SSE_KEEP_ALIVE = ': keep-alive\n\n';

/** The position to resume after: a Last-Event-ID header of decimal digits, else `fallback`. */
export function resumeAfter(lastEventId: string | string[] | undefined, fallback = 0): number {
  const value = Array.isArray(lastEventId) ? lastEventId[0] : lastEventId;
  return value !== undefined && /^\d{1,10}$/.test(value) ? Math.min(Number(value), 2_147_483_647) : fallback;
}
