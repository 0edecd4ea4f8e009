// A project's deployments (every publish, newest first) and putting an earlier one live again at
// once: a rollback needs no build and no copy, the deployment's files are still stored.
import type { SitesSettings } from '../settings.ts';
import type { Database } from '../../db/index.ts';
import { num } from '../../db/executor.ts';
import { signalWork } from '../../jobs/signal.ts';
import { toIso } from '../../lib/clock.ts';
import { notFound } from '../common/errors.ts';
import { lockProject } from '../projects/repo.ts';
import { requireAbility, requirePermission, requireVisibleProject } from '../access/access.ts';
import { visibleProject } from '../access/projects.ts';
import type { Principal } from '../access/principal.ts';

/** One deployment of one project: named, so that the two ids cannot be swapped. */
export interface DeploymentRef {
  projectId: string;
  deploymentId: string;
}
import * as repo from './repo.ts';
import type { Deployment, Published } from './schema.ts';
import { goLive } from './go-live.ts';

export class DeploymentsService {
  constructor(
    private readonly database: Database,
    private readonly config: { sites: SitesSettings },
  ) {}

  async list(
    principal: Principal,
    projectId: string,
    limit: number,
    offset: number,
  ): Promise<{ deployments: Deployment[]; total: number }> {
    const { orgId } = principal;
    const project = await visibleProject(this.database.db, principal, projectId);
    const { rows, total } = await repo.listDeployments(this.database.db, orgId, projectId, limit, offset);
    return {
      deployments: rows.map((r) => ({
        id: r.id,
        version_id: r.version_id,
        version_number: r.version_number === null ? null : num(r.version_number),
        file_count: num(r.file_count),
        size: num(r.total_bytes),
        created_at: toIso(r.created_at),
        live: r.id === project.current_deployment_id,
      })),
      total,
    };
  }

  /** Serves deployment `deploymentId` again from the next request on, with a project.published event. */
  async promote(principal: Principal, { projectId, deploymentId }: DeploymentRef): Promise<Published> {
    requirePermission(principal, 'write');
    requireAbility(principal, 'publish');
    const { orgId } = principal;
    const published = await this.database.transaction(async (trx): Promise<Published> => {
      const current = await lockProject(trx, orgId, projectId);
      requireVisibleProject(principal, current);
      if (!(await repo.findDeployment(trx, orgId, projectId, deploymentId))) throw notFound('Deployment');
      return goLive(trx, this.config.sites, current, deploymentId);
    });
    signalWork('sites');
    return published;
  }
}
