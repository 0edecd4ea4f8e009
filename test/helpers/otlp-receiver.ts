// A local OTLP/HTTP receiver (JSON encoding: OTEL_EXPORTER_OTLP_PROTOCOL=http/json) that keeps
// every span it is sent, for tests of the traces a server makes.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}

export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** The path of every export received (`/v1/traces`, `/v1/metrics`, `/v1/logs`). */
  readonly paths: string[] = [];
  private constructor(private readonly server: Server) {}

  static async start(): Promise<OtlpReceiver> {
    const server = createServer();
    const receiver = new OtlpReceiver(server);
    server.on('request', (req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        receiver.paths.push(req.url ?? '');
        if (req.url === '/v1/traces') receiver.take(JSON.parse(body));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private take(request: any): void {
    for (const resource of request.resourceSpans ?? [])
      for (const scope of resource.scopeSpans ?? [])
        for (const span of scope.spans ?? [])
          this.spans.push({
            traceId: span.traceId,
            spanId: span.spanId,
            ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
            name: span.name,
            kind: span.kind,
            attributes: Object.fromEntries(
              (span.attributes ?? []).map((a: any) => [a.key, Object.values(a.value ?? {})[0]]),
            ),
          });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
