// Plans mirrored on the connected account: each active plan with a price above 0 is a Product
// with a recurring Price. A price, interval or currency change makes a new Price and archives the
// old one; subscriptions on the old Price move to the new one at their next renewal, without
// proration (the period already paid stays as it was, as the spec says). A plan deactivated or
// made free archives its Price: no new subscription can start on it.
import { bool, num } from '../../db/executor.ts';
import { nowIso } from '../../lib/clock.ts';
import type { Plan } from '../plans/schema.ts';
import { findPlan } from '../plans/repo.ts';
import { refOf, type BillingDeps } from './context.ts';
import type { AccountRef } from './processor.ts';
import * as repo from './repo.ts';
import { minorUnits } from './settings.ts';

export class BillingCatalog {
  constructor(private readonly deps: BillingDeps) {}

  private get db() {
    return this.deps.database.db;
  }

  /** Every plan of the organization, after connecting (or changing the currency). */
  async syncAll(orgId: string): Promise<void> {
    const plans = await repo.planIds(this.db, orgId);
    let failure: unknown;
    // One plan Stripe refuses does not keep the others from being mirrored.
    for (const { id } of plans) await this.syncPlan(orgId, id).catch((error: unknown) => (failure ??= error));
    if (failure) throw failure;
  }

  /** The plan's current Price id on the live connection (made or replaced as needed); null: not billed. */
  async syncPlan(orgId: string, planId: string): Promise<string | null> {
    const connection = await repo.liveConnection(this.db, orgId);
    const plan = await findPlan(this.db, orgId, planId);
    if (!connection || !plan) return null;
    const ref = refOf(this.deps, connection);
    if (!ref) return null;
    const { currency } = await repo.billingSettings(this.db, orgId);
    const current = await repo.currentPrice(this.db, connection.id, plan.id);
    const billed = plan.is_active && plan.price > 0;
    const product = {
      name: plan.name,
      description: plan.description,
      active: billed,
      metadata: meta(orgId, plan),
    };
    if (current) await this.deps.processor.updateProduct(ref, current.product_id, product);
    if (!billed) {
      if (current && bool(current.active)) await this.archive(ref, connection.id, current.price_id);
      await this.show(orgId, plan.id, current?.product_id ?? null, null);
      return null;
    }
    const amount = minorUnits(plan.price, currency);
    const same =
      current &&
      bool(current.active) &&
      num(current.amount) === amount &&
      current.currency === currency &&
      current.interval === plan.interval;
    if (same) {
      await this.show(orgId, plan.id, current.product_id, current.price_id);
      return current.price_id;
    }
    const productId = current?.product_id ?? (await this.deps.processor.createProduct(ref, product));
    const priceId = await this.deps.processor.createPrice(ref, {
      productId,
      amount,
      currency,
      interval: plan.interval,
      metadata: meta(orgId, plan),
    });
    await repo.insertPrice(this.db, {
      connection_id: connection.id,
      price_id: priceId,
      org_id: orgId,
      plan_id: plan.id,
      product_id: productId,
      amount,
      currency,
      interval: plan.interval,
      active: true,
      created_at: nowIso(),
    });
    if (current && bool(current.active)) await this.archive(ref, connection.id, current.price_id);
    await this.show(orgId, plan.id, productId, priceId);
    await this.moveSubscriptions(ref, connection.id, plan.id, { priceId, currency, interval: plan.interval });
    return priceId;
  }

  private async archive(ref: AccountRef, connectionId: string, priceId: string): Promise<void> {
    await this.deps.processor.archivePrice(ref, priceId);
    await repo.deactivatePrice(this.db, connectionId, priceId);
  }

  private async show(orgId: string, planId: string, productId: string | null, priceId: string | null) {
    await repo.showPlanPrice(this.db, orgId, planId, { productId, priceId });
  }

  /**
   * Subscriptions on the plan's older Prices take the new one from their next renewal on. A
   * subscription in another currency keeps its Price (Stripe cannot move it across currencies);
   * one Stripe refuses is logged and left as it is, never failing the plan's change.
   */
  private async moveSubscriptions(
    ref: AccountRef,
    connectionId: string,
    planId: string,
    to: { priceId: string; currency: string; interval: 'monthly' | 'yearly' },
  ) {
    const customers = await repo.customersOnOlderPrices(this.db, connectionId, planId, to.priceId);
    for (const customer of customers) {
      try {
        const sub = await this.deps.processor.subscription(ref, customer.subscription_id!);
        if (!sub || sub.priceId === to.priceId) continue;
        const paying = sub.priceId ? await repo.priceById(this.db, connectionId, sub.priceId) : undefined;
        if (paying && paying.currency !== to.currency) continue;
        const intervalChanges = paying?.interval !== to.interval;
        await this.deps.processor.movePriceAtRenewal(ref, sub, { ...to, intervalChanges });
      } catch (error) {
        this.deps.logger?.warn(
          {
            err: error instanceof Error ? error.message : String(error),
            subscription: customer.subscription_id,
          },
          'billing: a subscription could not be moved to its plan’s new price',
        );
      }
    }
  }
}

function meta(orgId: string, plan: Plan): Record<string, string> {
  return { sitewright_org_id: orgId, sitewright_plan_id: plan.id };
}
