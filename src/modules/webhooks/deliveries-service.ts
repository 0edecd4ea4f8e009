// The delivery log of an endpoint, replays, and the test ping.
import type { WebhookSettings } from '../settings.ts';
import type { Database } from '../../db/index.ts';
import { notFound } from '../common/errors.ts';
import { activeSecrets, deliveryLeaseMs, type DeliveryJob } from '../../events/claim.ts';
import { recordTestEvent } from '../../events/outbox.ts';
import { recordResults } from '../../events/results.ts';
import { WebhookSender } from '../../events/sender.ts';
import { newLease } from '../../jobs/lease.ts';
import { signalWork } from '../../jobs/signal.ts';
import * as repo from './repo.ts';
import * as deliveries from './deliveries-repo.ts';
import type { DeliveriesQuery, WebhookAttempt, WebhookDelivery } from './deliveries-schema.ts';
import { agencyOrg } from '../access/access.ts';
import type { Principal } from '../access/principal.ts';

const REFUSAL = "Webhooks are the agency's to manage";

export class DeliveriesService {
  constructor(
    private readonly database: Database,
    private readonly config: { webhooks: WebhookSettings; webhooksAllowPrivate: boolean },
  ) {}

  private get db() {
    return this.database.db;
  }

  private async requireWebhook(orgId: string, webhookId: string) {
    const webhook = await repo.findWebhook(this.db, orgId, webhookId);
    if (!webhook) throw notFound('Webhook');
    return webhook;
  }

  async list(
    principal: Principal,
    webhookId: string,
    query: DeliveriesQuery,
  ): Promise<{ deliveries: WebhookDelivery[]; total: number }> {
    const orgId = agencyOrg(principal, 'read', REFUSAL, true);
    await this.requireWebhook(orgId, webhookId);
    return deliveries.listDeliveries(this.db, orgId, webhookId, {
      limit: query.limit ?? 50,
      offset: query.offset ?? 0,
      status: query.status,
    });
  }

  /**
   * Sends a delivery again as soon as a dispatcher picks it up, with its original event (same
   * webhook-id and body). If that attempt fails, the delivery carries on with its retry schedule
   * where it stood; one that had already run through it is failed again.
   */
  async retry(principal: Principal, webhookId: string, deliveryId: string): Promise<WebhookDelivery> {
    const orgId = agencyOrg(principal, 'write', REFUSAL, true);
    await this.requireWebhook(orgId, webhookId);
    if (!(await deliveries.findDelivery(this.db, orgId, webhookId, deliveryId))) throw notFound('Delivery');
    await deliveries.scheduleNow(this.db, orgId, webhookId, deliveryId);
    signalWork('outbox');
    return (await deliveries.findDelivery(this.db, orgId, webhookId, deliveryId))!;
  }

  /**
   * Sends a `webhook.test` event to this endpoint only, now, whether or not it is active, and
   * returns the attempt. The ping is one attempt with no retries and does not count towards the
   * endpoint's failure record; it shows in the delivery log like any delivery.
   */
  async test(
    principal: Principal,
    webhookId: string,
  ): Promise<{ attempt: WebhookAttempt; delivery: WebhookDelivery }> {
    const orgId = agencyOrg(principal, 'write', REFUSAL, true);
    const webhook = await this.requireWebhook(orgId, webhookId);
    const { timeoutMs } = this.config.webhooks;
    // Leased to this request as a dispatcher would lease it, so no dispatcher sends it meanwhile.
    const lease = newLease(deliveryLeaseMs(timeoutMs));
    const event = await this.database.transaction((trx) =>
      recordTestEvent(trx, orgId, webhookId, { webhook: repo.toWebhook(webhook) }, lease),
    );
    const job: DeliveryJob = {
      deliveryId: event.deliveryIds[0]!,
      webhookId,
      eventId: event.id,
      attemptCount: 0,
      leaseToken: lease.token,
      url: webhook.url,
      payload: event.payload,
      secrets: activeSecrets(webhook),
    };
    const sender = new WebhookSender({ timeoutMs, allowPrivate: this.config.webhooksAllowPrivate });
    try {
      const result = await sender.send(job);
      await recordResults(this.db, [{ job, result, once: true }], this.config.webhooks);
    } finally {
      sender.close();
    }
    const delivery = (await deliveries.findDelivery(this.db, orgId, webhookId, job.deliveryId))!;
    return { attempt: delivery.attempts[0]!, delivery };
  }
}
