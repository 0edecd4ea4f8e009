// Connecting an organization's Stripe account, the two ways: the agency's own key (checked, then
// a webhook endpoint made on its account and the endpoint's signing secret kept), or Stripe
// Connect (the OAuth flow of Standard accounts; events arrive on the operator's one endpoint).
// Disconnecting removes what was made on the account and forgets the secrets.
import { bool } from '../../db/executor.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { newId } from '../../lib/ids.ts';
import { nowIso } from '../../lib/clock.ts';
import { conflict, invalid, upstream } from '../common/errors.ts';
import { ownerOrg } from '../access/access.ts';
import type { Principal } from '../access/principal.ts';
import {
  keyContext,
  platformContext,
  refOf,
  toConnection,
  webhookContext,
  webhookUrl,
  type BillingDeps,
} from './context.ts';
import { ProcessorError, type AccountRef } from './processor.ts';
import * as repo from './repo.ts';
import type { BillingConnection } from './schema.ts';

const KEY = /^(rk|sk)_(test|live)_[A-Za-z0-9]{8,240}$/;

export interface Connected {
  connection: BillingConnection;
  /** Said to the owner: a secret key works, but gives more than billing needs. */
  warning: string | null;
}

export class BillingConnections {
  constructor(private readonly deps: BillingDeps) {}

  private get db() {
    return this.deps.database.db;
  }

  /** Whether keys and signing secrets can be kept here at all. */
  get canKeepSecrets(): boolean {
    return this.deps.secrets !== undefined;
  }

  get secretsMissing(): string {
    return this.deps.secretsMissing;
  }

  /** Whether the operator offers Stripe Connect (STRIPE_SECRET_KEY and STRIPE_CONNECT_CLIENT_ID). */
  get connectOffered(): boolean {
    return this.deps.processor.connect !== undefined;
  }

  /** Whether the organization has billing, and in which mode (what its clients' pages say). */
  async mode(orgId: string): Promise<{ livemode: boolean } | null> {
    const row = await repo.liveConnection(this.db, orgId);
    return row ? { livemode: bool(row.livemode) } : null;
  }

  async get(principal: Principal): Promise<BillingConnection | undefined> {
    const row = await repo.liveConnection(this.db, principal.orgId);
    return row && toConnection(this.deps, row);
  }

  /** Checks the key, makes the webhook endpoint on its account, keeps both (sealed). */
  async connectKey(principal: Principal, rawKey: string): Promise<Connected> {
    const orgId = ownerOrg(principal);
    const key = rawKey.trim();
    if (/^pk_/.test(key))
      throw invalid(
        `field 'key': that is a publishable key; give a restricted key (rk_...) made for Sitewright`,
      );
    if (!KEY.test(key))
      throw invalid(
        `field 'key' must be a Stripe restricted key (rk_test_... or rk_live_...) or secret key (sk_...)`,
      );
    const secrets = this.deps.secrets;
    if (!secrets) throw invalid(`field 'key' cannot be kept: ${this.deps.secretsMissing}`);
    const ref: AccountRef = { key };
    const account = await asInput(this.deps.processor.account(ref));
    const live = await repo.liveConnection(this.db, orgId);
    const sameAccount = live && live.account_id === account.id && bool(live.livemode) === account.livemode;
    if (live && !sameAccount)
      throw conflict(
        `Billing is connected to another Stripe account (${live.account_id}); disconnect it first`,
      );
    const earlier = live ?? (await repo.earlierConnection(this.db, orgId, account.id, account.livemode));
    // Reconnecting the same account (or a new key for it) keeps the connection's id, so its
    // webhook URL, customers and prices stay the same.
    const id = earlier?.id ?? newId();
    const endpoint = await asInput(
      this.deps.processor.createWebhookEndpoint(ref, webhookUrl(this.deps.publicUrl, id), {
        connect: false,
        description: 'Sitewright client billing',
      }),
    );
    const now = nowIso();
    const fields = {
      method: 'key',
      account_id: account.id,
      account_name: account.name,
      livemode: account.livemode,
      key_kind: key.startsWith('sk_') ? 'secret' : 'restricted',
      key_sealed: secrets.seal(key, keyContext(id)),
      key_hint: key.slice(-4),
      webhook_endpoint_id: endpoint.id,
      webhook_secret_sealed: secrets.seal(endpoint.secret, webhookContext(id)),
      connected_at: now,
      disconnected_at: null,
    };
    try {
      if (earlier) await repo.updateConnection(this.db, id, fields);
      else await repo.insertConnection(this.db, { id, org_id: orgId, ...fields });
    } catch (error) {
      // Another owner connected at the same moment: theirs stays, this endpoint goes.
      await this.deps.processor.deleteWebhookEndpoint(ref, endpoint.id).catch(() => undefined);
      if (isUniqueViolation(error))
        throw conflict('Billing was connected at the same moment; reload the page');
      throw error;
    }
    // The endpoint of the key this one replaces (same account) is not needed any more.
    if (live?.webhook_endpoint_id && live.webhook_endpoint_id !== endpoint.id) {
      // The same account: the new key may remove it when the kept one cannot be read any more.
      const old = refOf(this.deps, live) ?? ref;
      await this.deps.processor.deleteWebhookEndpoint(old, live.webhook_endpoint_id).catch(() => undefined);
    }
    const connection = toConnection(this.deps, (await repo.liveConnection(this.db, orgId))!);
    const warning = key.startsWith('sk_')
      ? 'This is a secret key: it works, but it can do anything on the account. A restricted key with only the permissions billing needs is safer (docs/guide/billing.md).'
      : null;
    return { connection, warning };
  }

  /** The URL an owner is sent to (Connect with Stripe); `state` comes back with the code. */
  connectUrl(principal: Principal, redirectUri: string): string {
    const orgId = ownerOrg(principal);
    const connect = this.deps.processor.connect;
    if (!connect) throw invalid('Stripe Connect is not configured on this installation');
    const secrets = this.deps.secrets;
    if (!secrets) throw invalid(this.deps.secretsMissing);
    const state = secrets.seal(JSON.stringify({ orgId, by: actorOf(principal), at: Date.now() }), STATE);
    return connect.authorizeUrl(state, redirectUri);
  }

  /** The end of the OAuth flow: the code exchanged, the account kept, the platform endpoint made once. */
  async finishConnect(principal: Principal, code: string, state: string): Promise<BillingConnection> {
    const orgId = ownerOrg(principal);
    const connect = this.deps.processor.connect;
    const secrets = this.deps.secrets;
    if (!connect || !secrets) throw invalid('Stripe Connect is not configured on this installation');
    const opened = secrets.open(state, STATE);
    const said = opened ? (JSON.parse(opened) as { orgId: string; by: string; at: number }) : undefined;
    const mine = said?.orgId === orgId && said.by === actorOf(principal);
    if (!said || !mine || Date.now() - said.at > 30 * 60_000)
      throw invalid('This Stripe authorization was not started here, or is too old; connect again');
    const { accountId, livemode } = await asInput(connect.exchange(code), 'Stripe');
    await this.ensurePlatformEndpoint();
    const live = await repo.liveConnection(this.db, orgId);
    if (live && (live.account_id !== accountId || bool(live.livemode) !== livemode))
      throw conflict(
        `Billing is connected to another Stripe account (${live.account_id}); disconnect it first`,
      );
    const other = await repo.liveConnectionOfAccount(this.db, accountId, livemode);
    if (other && other.org_id !== orgId)
      throw conflict('That Stripe account is connected to another organization here');
    const earlier = live ?? (await repo.earlierConnection(this.db, orgId, accountId, livemode));
    const id = earlier?.id ?? newId();
    const account = await this.deps.processor.account({ account: accountId }).catch(() => undefined);
    const fields = {
      method: 'connect',
      account_id: accountId,
      account_name: account?.name ?? null,
      livemode,
      key_kind: null,
      key_sealed: null,
      key_hint: null,
      webhook_endpoint_id: null,
      webhook_secret_sealed: null,
      connected_at: nowIso(),
      disconnected_at: null,
    };
    try {
      if (earlier) await repo.updateConnection(this.db, id, fields);
      else await repo.insertConnection(this.db, { id, org_id: orgId, ...fields });
    } catch (error) {
      if (isUniqueViolation(error))
        throw conflict('That Stripe account was connected here at the same moment');
      throw error;
    }
    // The account's own endpoint, when it was connected with a key before, is not needed any more.
    const kept = live && refOf(this.deps, live);
    if (kept && live.webhook_endpoint_id)
      await this.deps.processor.deleteWebhookEndpoint(kept, live.webhook_endpoint_id).catch(() => undefined);
    return toConnection(this.deps, (await repo.liveConnection(this.db, orgId))!);
  }

  /** The operator's Connect endpoint, made on the platform account the first time it is needed. */
  private async ensurePlatformEndpoint(): Promise<void> {
    const platform = await asInput(this.deps.processor.account({ platform: true }), 'STRIPE_SECRET_KEY');
    if (await repo.findPlatform(this.db, platform.id, platform.livemode)) return;
    const url = `${new URL(this.deps.publicUrl).origin}/webhooks/stripe/connect`;
    const endpoint = await asInput(
      this.deps.processor.createWebhookEndpoint({ platform: true }, url, {
        connect: true,
        description: 'Sitewright client billing (Stripe Connect)',
      }),
      'STRIPE_SECRET_KEY',
    );
    const kept = await repo.insertPlatform(this.db, {
      account_id: platform.id,
      livemode: endpoint.livemode,
      url,
      webhook_endpoint_id: endpoint.id,
      webhook_secret_sealed: this.deps.secrets!.seal(
        endpoint.secret,
        platformContext(platform.id, platform.livemode),
      ),
      created_at: nowIso(),
    });
    // Made twice at the same moment: one endpoint is enough.
    if (!kept)
      await this.deps.processor.deleteWebhookEndpoint({ platform: true }, endpoint.id).catch(() => undefined);
  }

  /**
   * Removes the endpoint (or the Connect authorization) and forgets the secrets. `stripe` says
   * what happened on Stripe's side: `failed` when it could not be removed (the owner is told to
   * delete the endpoint in the Stripe Dashboard; its events are refused here meanwhile).
   */
  async disconnect(principal: Principal): Promise<Disconnected> {
    const orgId = ownerOrg(principal);
    const live = await repo.liveConnection(this.db, orgId);
    if (!live) return { disconnected: false, stripe: 'none' };
    const ref = refOf(this.deps, live);
    let stripe: Disconnected['stripe'] = live.webhook_endpoint_id ? 'failed' : 'none';
    try {
      if (live.method === 'connect') {
        await this.deps.processor.connect?.deauthorize(live.account_id);
        stripe = 'deauthorized';
      } else if (ref && live.webhook_endpoint_id) {
        await this.deps.processor.deleteWebhookEndpoint(ref, live.webhook_endpoint_id);
        stripe = 'removed';
      }
    } catch (error) {
      stripe = 'failed';
      this.deps.logger?.warn(
        { err: error instanceof Error ? error.message : String(error), connection: live.id },
        'billing: the Stripe side of a disconnection failed',
      );
    }
    await repo.updateConnection(this.db, live.id, {
      disconnected_at: nowIso(),
      key_sealed: null,
      webhook_secret_sealed: null,
    });
    await repo.showPlanPrice(this.db, orgId, undefined, { productId: null, priceId: null });
    return { disconnected: true, stripe };
  }
}

export interface Disconnected {
  disconnected: boolean;
  /** On Stripe: the endpoint removed, the Connect authorization revoked, or it failed. */
  stripe: 'removed' | 'deauthorized' | 'failed' | 'none';
}

const STATE = 'billing_connect_state';

/** Who started a Connect flow: its state only comes back for the same person. */
function actorOf(principal: Principal): string {
  const { actor } = principal;
  return actor.kind === 'member' || actor.kind === 'client' ? actor.userId : actor.kind;
}

/** A processor refusal during a connection is the owner's input that failed: a 400 saying why. */
async function asInput<T>(call: Promise<T>, what = "field 'key'"): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof ProcessorError)
      throw error.refusedKey ? invalid(`${what}: ${error.message}`) : upstream(error.message);
    throw error;
  }
}
