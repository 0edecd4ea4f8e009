// The worker's own small port (WORKER_HEALTH_PORT): \`/healthz\` says the process answers,
// \`/readyz\` that its database, migrations and Redis do, as the server's routes of the same names,
// and with METRICS=on \`/metrics\` (the same callers allowed as on the server). An orchestrator
// probes it as it probes the web instances.
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { readinessBody, type Readiness } from '../lib/readiness.ts';
import { metricsAllowed, type MetricsAccess } from '../lib/metrics-access.ts';

export interface WorkerMetrics {
  access: MetricsAccess;
  contentType: string;
  render(): Promise<string>;
}

export async function startWorkerHealth(
  host: string,
  port: number,
  readiness: () => Promise<Readiness>,
  metrics?: WorkerMetrics,
): Promise<{ stop(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const send = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, { error: 'only GET' });
    if (path === '/healthz') return send(200, { status: 'ok' });
    if (path === '/metrics' && metrics) {
      if (!metricsAllowed(req, metrics.access)) return send(404, { error: 'not found' });
      metrics.render().then(
        (text) =>
          res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' }).end(text),
        () => send(500, { error: 'metrics could not be read' }),
      );
      return;
    }
    if (path !== '/readyz') return send(404, { error: 'not found: this port answers /healthz and /readyz' });
    readiness().then(
      (state) => send(state.ready ? 200 : 503, readinessBody(state)),
      () => send(503, { error: 'not ready: the check failed' }),
    );
  });
  server.listen(port, host);
  await once(server, 'listening');
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
