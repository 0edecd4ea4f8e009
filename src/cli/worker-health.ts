// The worker's own small port (WORKER_HEALTH_PORT): \`/healthz\` says the process answers,
// \`/readyz\` that its database, migrations and Redis do, as the server's routes of the same names.
// An orchestrator probes it as it probes the web instances.
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { readinessBody, type Readiness } from '../lib/readiness.ts';

export async function startWorkerHealth(
  host: string,
  port: number,
  readiness: () => Promise<Readiness>,
): Promise<{ stop(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const send = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, { error: 'only GET' });
    if (path === '/healthz') return send(200, { status: 'ok' });
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
