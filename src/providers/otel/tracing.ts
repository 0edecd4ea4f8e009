// OpenTelemetry traces (docs/operations.md, Traces): the SDK configured by the standard OTEL_*
// variables (endpoint, protocol, headers, service name, sampler), the HTTP, pg and undici
// instrumentations (incoming requests honour a `traceparent`; queries on PostgreSQL; outgoing
// calls such as webhook attempts), and the Tracing port of lib/tracing.ts for what Sitewright
// names itself: routes, MCP tool calls, webhook attempts, generation jobs, SQLite's queries.
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { useTracing } from '../../lib/tracing.ts';
import { VERSION } from '../../lib/version.ts';

const QUIET = new Set(['/healthz', '/readyz', '/metrics']);

const sdk = new NodeSDK({
  serviceName: process.env.OTEL_SERVICE_NAME ?? 'sitewright',
  instrumentations: [
    // Probes and scrapes every few seconds would drown the traces that matter.
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (req) => QUIET.has((req.url ?? '').split('?')[0]!),
    }),
    // Queries inside a request or a job only: the workers' polls would be traces of their own.
    new PgInstrumentation({ requireParentSpan: true }),
    new UndiciInstrumentation(),
  ],
});
sdk.start();

const tracer = trace.getTracer('sitewright', VERSION);

useTracing({
  span: (name, attributes, fn) =>
    tracer.startActiveSpan(name, { attributes }, async (span) => {
      try {
        return await fn();
      } catch (error) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
        throw error;
      } finally {
        span.end();
      }
    }),
  nameRequest: (surface, method, route) => {
    const span = trace.getActiveSpan();
    span?.updateName(`${method} ${route}`);
    span?.setAttributes({ 'http.route': route, 'sitewright.surface': surface });
  },
  query: (sql, ms) => {
    if (!trace.getActiveSpan()) return; // as requireParentSpan above
    const end = Date.now();
    tracer
      .startSpan('db.query', {
        kind: SpanKind.CLIENT,
        startTime: end - ms,
        attributes: { 'db.system': 'sqlite', 'db.statement': sql.slice(0, 2_000) },
      })
      .end(end);
  },
  flush: () => sdk.shutdown(),
});
