// OpenTelemetry traces (docs/operations.md, Traces): the SDK configured by the standard OTEL_*
// variables (endpoint, protocol, headers, service name, sampler), the HTTP instrumentation for
// incoming requests (a `traceparent` is honoured; URLs are written with their secrets taken out,
// as in the logs) and pg's for PostgreSQL's queries, and the Tracing port of lib/tracing.ts for
// what Sitewright names itself: routes, MCP tool calls, webhook attempts, generation jobs,
// SQLite's queries. Outgoing calls get no spans of their own: their URLs are the agencies'
// webhook endpoints and keys' hosts, which may hold secrets; the webhook attempt's span stands
// for them. Traces only: metrics are /metrics's (METRICS=on), and the SDK exports neither
// metrics nor logs.
import type { IncomingMessage } from 'node:http';
import { SpanKind, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { useTracing } from '../../lib/tracing.ts';
import { redactUrl } from '../../lib/url-redaction.ts';
import { VERSION } from '../../lib/version.ts';

const QUIET = new Set(['/healthz', '/readyz', '/metrics']);

/** The request's URL attributes with secrets taken out; a preview link's whole path is one. */
function urlAttributes(req: IncomingMessage): Attributes {
  const preview = (req.headers.host ?? '').startsWith('preview.') || (req.url ?? '').startsWith('/preview/');
  const target = preview ? '/[redacted]' : redactUrl(req.url ?? '/');
  const mark = target.indexOf('?');
  return {
    'http.target': target,
    'url.path': mark === -1 ? target : target.slice(0, mark),
    'url.query': mark === -1 ? '' : target.slice(mark + 1),
    'http.url': `http://${req.headers.host ?? ''}${target}`,
  };
}

const sdk = new NodeSDK({
  serviceName: process.env.OTEL_SERVICE_NAME ?? 'sitewright',
  metricReaders: [],
  logRecordProcessors: [],
  instrumentations: [
    new HttpInstrumentation({
      // Probes and scrapes every few seconds would drown the traces that matter.
      ignoreIncomingRequestHook: (req) => QUIET.has((req.url ?? '').split('?')[0]!),
      startIncomingSpanHook: (req) => urlAttributes(req as IncomingMessage),
      disableOutgoingRequestInstrumentation: true,
    }),
    // Queries inside a request or a job only: the workers' polls would be traces of their own.
    new PgInstrumentation({ requireParentSpan: true }),
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
