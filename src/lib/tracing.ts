// Traces (OTEL_EXPORTER_OTLP_ENDPOINT set): the port through which the code names what it does,
// and the one place the OpenTelemetry adapter plugs in (providers/otel/tracing.ts, loaded by
// bin/sitewright.js before anything else, and only then). Without it every call here is a plain
// function call: no OpenTelemetry code is loaded at all.

export type SpanAttributes = Record<string, string | number | boolean>;

export interface Tracing {
  /** Runs `fn` in a span of its own, a child of the current one; errors are recorded on it. */
  span<T>(name: string, attributes: SpanAttributes, fn: () => Promise<T>): Promise<T>;
  /** Names the current request's span after the route that answers it. */
  nameRequest(surface: string, method: string, route: string): void;
  /** A database query that took `ms` and just ended (SQLite; PostgreSQL's are traced by pg's instrumentation). */
  query(sql: string, ms: number): void;
  /** Sends the spans still buffered (before the process exits). */
  flush(): Promise<void>;
}

const noTracing: Tracing = {
  span: (_name, _attributes, fn) => fn(),
  nameRequest() {},
  query() {},
  flush: async () => {},
};

let current: Tracing = noTracing;

export function tracing(): Tracing {
  return current;
}

/** Called once, by the OpenTelemetry adapter, before the server is built. */
export function useTracing(implementation: Tracing): void {
  current = implementation;
}

/** Whether traces are being made (the database then reports its queries). */
export function tracingOn(): boolean {
  return current !== noTracing;
}
