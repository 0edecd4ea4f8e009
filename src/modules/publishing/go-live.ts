// Putting a deployment live: the project points at it, and project.published is written in the
// same transaction (a publish and a rollback alike), so a site is never live without its event.
import type { Executor } from '../../db/executor.ts';
import { recordEvent } from '../../events/outbox.ts';
import { toProject, type ProjectRow } from '../projects/repo.ts';
import type { SitesSettings } from '../settings.ts';
import * as repo from './repo.ts';
import type { Published } from './schema.ts';
import { siteUrl } from './urls.ts';

export async function goLive(
  trx: Executor,
  sites: SitesSettings,
  current: ProjectRow,
  deploymentId: string,
): Promise<Published> {
  const now = new Date().toISOString();
  const url = siteUrl(sites, current);
  const changes = {
    current_deployment_id: deploymentId,
    published_url: url,
    last_published_at: now,
    updated_at: now,
  };
  await repo.setLive(trx, current.org_id, current.id, changes);
  const project = toProject({ ...current, ...changes });
  await recordEvent(trx, {
    orgId: current.org_id,
    type: 'project.published',
    data: { project, deployment_id: deploymentId },
  });
  return { url, deployId: deploymentId, status: 'ready', project };
}
