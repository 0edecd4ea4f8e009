// The payment processor's webhook: a caller of its own, outside /api/v1 (no key; the signature
// is its credential). The raw body is handed to the library's signature check untouched. An
// account's own endpoint is `/webhooks/stripe/{connection id}`; the operator's Connect endpoint
// is `/webhooks/stripe/connect`. A bad or missing signature: 400, nothing changed; an unknown
// connection: 404; a replay: 200, nothing changed.
import type { FastifyInstance } from 'fastify';
import type { BillingService } from '../../modules/billing/service.ts';

const MAX_EVENT_BYTES = 1024 * 1024;

export async function registerStripeWebhooks(app: FastifyInstance, billing: BillingService): Promise<void> {
  await app.register(async (scope) => {
    // Every body arrives as bytes, whatever its type: the signature covers them exactly.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_EVENT_BYTES }, (_req, body, done) =>
      done(null, body),
    );
    const signature = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
    const bytes = (body: unknown) => (Buffer.isBuffer(body) ? body : Buffer.alloc(0));
    scope.post('/webhooks/stripe/connect', { schema: { hide: true } }, async (request) => {
      const handled = await billing.receiveConnect(
        bytes(request.body),
        signature(request.headers['stripe-signature']),
      );
      return { received: true, outcome: handled.outcome };
    });
    scope.post<{ Params: { connectionId: string } }>(
      '/webhooks/stripe/:connectionId',
      { schema: { hide: true } },
      async (request) => {
        const handled = await billing.receive(
          request.params.connectionId,
          bytes(request.body),
          signature(request.headers['stripe-signature']),
        );
        return { received: true, outcome: handled.outcome };
      },
    );
  });
}
