// Loaded by bin/sitewright.js before the rest of Sitewright, and only when
// OTEL_EXPORTER_OTLP_ENDPOINT is set. Modules imported as ES modules are instrumented through
// import-in-the-middle's hook, which must be registered before they load; then the SDK starts.
import { register } from 'node:module';

register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
await import('./tracing.ts');
