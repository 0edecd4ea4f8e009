// What the server tells its operator it is doing, as events (requests answered, webhook attempts,
// generations, domain checks). The parts that do the work call this port; with METRICS=on the
// Prometheus adapter (providers/prometheus/) counts them, otherwise nothing does. Labels are
// kinds, never ids, emails or hosts: their number stays bounded whatever the data.

/** Which way in answered a request. */
export type Surface = 'api' | 'pages' | 'mcp' | 'oauth' | 'embed' | 'edge' | 'internal';

export interface Telemetry {
  /** `route`: the route's pattern (`/api/v1/clients/:id`), `unmatched` when none matched. */
  httpRequest(surface: Surface, route: string, method: string, status: number, seconds: number): void;
  webhookAttempt(outcome: 'succeeded' | 'failed', seconds: number): void;
  /** `status`: the generation's state after the attempt (succeeded, failed, queued to retry, cancelled). */
  generationRun(status: string, seconds: number): void;
  /** `status`: the domain's state after the check (active, pending, failed). */
  domainCheck(status: string): void;
  /** One try to send a queued mail: `sent`, `retry` (the server refused or was down), `failed` (given up). */
  mailAttempt(outcome: 'sent' | 'retry' | 'failed'): void;
}

export const noTelemetry: Telemetry = {
  httpRequest() {},
  webhookAttempt() {},
  generationRun() {},
  domainCheck() {},
  mailAttempt() {},
};

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** A request method as a label: the usual ones, anything else `OTHER`. */
export function methodLabel(method: string | undefined): string {
  return method && METHODS.has(method) ? method : 'OTHER';
}

/** The way in a route pattern (or, when no route matched, a path) belongs to. */
export function surfaceOf(route: string): Surface {
  if (route.startsWith('/api/mcp')) return 'mcp';
  if (route.startsWith('/api/embed') || route.startsWith('/embed')) return 'embed';
  if (route.startsWith('/api/')) return 'api';
  if (route.startsWith('/oauth') || route.startsWith('/.well-known/')) return 'oauth';
  if (['/healthz', '/readyz', '/metrics'].includes(route) || route.startsWith('/internal/'))
    return 'internal';
  return 'pages';
}
