// Re-checks pending custom domains in the background every DOMAIN_CHECK_INTERVAL, with the same
// claim loop and leases as the other workers, so several instances never check one twice at once.
import type { SitesSettings } from '../settings.ts';
import type { Database } from '../../db/index.ts';
import { ClaimLoop, type ClaimLoopLogger } from '../../jobs/claim-loop.ts';
import { findLeasedDomain, leaseDueChecks } from './repo.ts';
import type { DomainsService } from './service.ts';
import { noTelemetry, type Telemetry } from '../../lib/telemetry.ts';

const LEASE_MS = 60_000;

export class DomainChecker {
  private readonly loop: ClaimLoop<{ id: string; token: string }>;

  constructor(
    private readonly domains: DomainsService,
    private readonly database: Database,
    settings: { sites: Pick<SitesSettings, 'domainCheckIntervalMs'> },
    logger?: ClaimLoopLogger,
    telemetry: Telemetry = noTelemetry,
  ) {
    this.loop = new ClaimLoop({
      name: 'domain checker',
      concurrency: 4,
      // Due times are minutes apart; looking every few seconds is plenty.
      pollIntervalMs: Math.min(settings.sites.domainCheckIntervalMs, 5_000),
      claim: async (limit) => {
        const { ids, token } = await leaseDueChecks(this.database, limit, LEASE_MS);
        return ids.map((id) => ({ id, token }));
      },
      run: async ({ id, token }) => {
        const row = await findLeasedDomain(this.database.db, id, token);
        if (row) telemetry.domainCheck((await this.domains.check(row, token)).status);
      },
      logger,
    });
  }

  start(): void {
    this.loop.start();
  }

  wake(): void {
    this.loop.wake();
  }

  stop(graceMs?: number): Promise<void> {
    return this.loop.stop(graceMs);
  }
}
