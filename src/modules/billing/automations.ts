// What billing does to a client's sites and account, as the organization chose in Settings →
// Billing (each off by default): publish its sites on its first payment; suspend it and/or take
// its sites offline when its subscription ends or stays past due too long; give back what was
// taken when it pays again. Each action goes through the usual service (so it emits its usual
// events) and is listed on the client's page.
import { newId } from '../../lib/ids.ts';
import { nowIso } from '../../lib/clock.ts';
import { systemPrincipal, type Principal } from '../access/principal.ts';
import type { ClientsService } from '../clients/service.ts';
import { findClient } from '../clients/repo.ts';
import type { BillingDeps } from './context.ts';
import type { ClientChange } from './processor-events.ts';
import * as repo from './repo.ts';
import type { BillingSettings } from './settings.ts';

/** The publishing calls automations make (PublishingService and DeploymentsService). */
export interface SiteControls {
  publish(principal: Principal, projectId: string): Promise<unknown>;
  unpublish(principal: Principal, projectId: string): Promise<unknown>;
  promote(principal: Principal, ref: { projectId: string; deploymentId: string }): Promise<unknown>;
}

const DAY_MS = 86_400_000;

export class BillingAutomations {
  constructor(
    private readonly deps: BillingDeps,
    private readonly clients: ClientsService,
    private readonly sites: SiteControls,
  ) {}

  private get db() {
    return this.deps.database.db;
  }

  /** Acts on what an event changed; a failure is logged and never undoes the event's changes. */
  async after(changes: ClientChange[]): Promise<void> {
    for (const change of changes) {
      try {
        const settings = await this.settingsOf(change.orgId);
        if (change.paid && change.firstPayment && settings.publish_on_first_payment)
          await this.publishSites(change.orgId, change.clientId);
        if (change.paid && settings.restore_on_payment) await this.restore(change.orgId, change.clientId);
        if (change.after === 'canceled' && change.before !== 'canceled')
          await this.stop(change.orgId, change.clientId, settings, 'its subscription was canceled');
      } catch (error) {
        this.deps.logger?.warn(
          { err: error instanceof Error ? error.message : String(error), client: change.clientId },
          'billing: an automation failed',
        );
      }
    }
  }

  /**
   * Clients past due for longer than their organization allows are stopped as on cancellation,
   * once per episode (claimed row by row, so two instances never act twice). Returns how many.
   */
  async sweepPastDue(now = new Date(), limit = 50): Promise<number> {
    let stopped = 0;
    for (const orgId of await repo.orgsWithBilling(this.db)) {
      const settings = await this.settingsOf(orgId);
      const days = settings.past_due_days;
      if (days === null) continue;
      const since = new Date(now.getTime() - days * DAY_MS).toISOString();
      for (const customer of await repo.pastDueSince(this.db, orgId, since, limit)) {
        if (!(await repo.claimPastDue(this.db, customer, now.toISOString()))) continue;
        try {
          if (await this.stop(orgId, customer.client_id, settings, `it was past due for ${days} days`))
            stopped += 1;
        } catch (error) {
          this.deps.logger?.warn(
            { err: error instanceof Error ? error.message : String(error), client: customer.client_id },
            'billing: the past-due automation failed',
          );
        }
      }
    }
    return stopped;
  }

  private async settingsOf(orgId: string): Promise<BillingSettings> {
    return repo.billingSettings(this.db, orgId);
  }

  private projectsOf(orgId: string, clientId: string) {
    return repo.clientProjects(this.db, orgId, clientId);
  }

  private async publishSites(orgId: string, clientId: string): Promise<void> {
    for (const project of await this.projectsOf(orgId, clientId)) {
      if (project.current_deployment_id) continue;
      try {
        await this.sites.publish(systemPrincipal(orgId), project.id);
        await this.log(orgId, clientId, 'site_published', `${project.name}: published on the first payment`);
      } catch (error) {
        // A project with nothing to publish yet stays as it is.
        const why = error instanceof Error ? error.message : String(error);
        await this.log(orgId, clientId, 'site_not_published', `${project.name}: ${why}`);
      }
    }
  }

  /** Suspends and/or unpublishes, as the settings say; true when anything was done. */
  private async stop(
    orgId: string,
    clientId: string,
    settings: BillingSettings,
    why: string,
  ): Promise<boolean> {
    let done = false;
    if (settings.suspend_on_cancel) {
      const client = await findClient(this.db, orgId, clientId);
      if (client && client.status !== 'suspended' && client.status !== 'churned') {
        await this.deps.database.transaction(async (trx) => {
          await this.clients.updateIn(trx, orgId, clientId, { status: 'suspended' });
          await this.hold(trx, orgId, clientId, { kind: 'suspended', previous_status: client.status });
        });
        await this.log(orgId, clientId, 'suspended', `Suspended: ${why}`);
        done = true;
      }
    }
    if (settings.unpublish_on_cancel) {
      for (const project of await this.projectsOf(orgId, clientId)) {
        if (!project.current_deployment_id) continue;
        await this.sites.unpublish(systemPrincipal(orgId), project.id);
        await this.hold(this.db, orgId, clientId, {
          kind: 'unpublished',
          project_id: project.id,
          deployment_id: project.current_deployment_id,
        });
        await this.log(orgId, clientId, 'site_unpublished', `${project.name}: taken offline, ${why}`);
        done = true;
      }
    }
    return done;
  }

  /** Gives back what billing took: the status before the suspension, the sites that were live. */
  private async restore(orgId: string, clientId: string): Promise<void> {
    const holds = await repo.holdsOf(this.db, orgId, clientId);
    for (const hold of holds) {
      if (hold.kind === 'suspended') {
        const client = await findClient(this.db, orgId, clientId);
        // Only a suspension billing made is lifted: one the agency made since stays.
        if (client?.status === 'suspended') {
          const status = (hold.previous_status ?? 'active') as 'active' | 'invited';
          await this.clients.update(systemPrincipal(orgId), clientId, { status });
          await this.log(orgId, clientId, 'reactivated', 'Reactivated: it paid again');
        }
      } else if (hold.project_id && hold.deployment_id) {
        // Only a site still offline comes back: one the agency published since stays as it is.
        const project = (await this.projectsOf(orgId, clientId)).find((p) => p.id === hold.project_id);
        if (project && !project.current_deployment_id) {
          const ref = { projectId: project.id, deploymentId: hold.deployment_id };
          await this.sites
            .promote(systemPrincipal(orgId), ref)
            .then(() =>
              this.log(orgId, clientId, 'site_republished', `${project.name}: back online, it paid again`),
            )
            .catch(() =>
              this.log(
                orgId,
                clientId,
                'site_not_republished',
                `${project.name}: could not be put back online`,
              ),
            );
        }
      }
      await repo.deleteHold(this.db, hold.id);
    }
  }

  private async hold(
    db: Parameters<typeof repo.insertActivity>[0],
    orgId: string,
    clientId: string,
    hold: { kind: string; project_id?: string; deployment_id?: string; previous_status?: string },
  ): Promise<void> {
    await repo.insertHold(db, {
      id: newId(),
      org_id: orgId,
      client_id: clientId,
      kind: hold.kind,
      project_id: hold.project_id ?? null,
      deployment_id: hold.deployment_id ?? null,
      previous_status: hold.previous_status ?? null,
      created_at: nowIso(),
    });
  }

  private async log(orgId: string, clientId: string, action: string, detail: string): Promise<void> {
    await repo.insertActivity(this.db, {
      id: newId(),
      org_id: orgId,
      client_id: clientId,
      action,
      detail,
      created_at: nowIso(),
    });
  }
}
