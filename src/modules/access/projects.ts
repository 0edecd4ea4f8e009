// A project as a principal may reach it: of its organization, and of its own client when it is
// limited to one; anything else is "not found", exactly as another organization's project is.
import type { Executor } from '../../db/executor.ts';
import { requireProject, type ProjectRow } from '../projects/repo.ts';
import { requireVisibleProject } from './access.ts';
import type { Principal } from './principal.ts';

/** Project `projectId` if `principal` may see it, else not found. */
export async function visibleProject(
  db: Executor,
  principal: Principal,
  projectId: string,
): Promise<ProjectRow> {
  const project = await requireProject(db, principal.orgId, projectId);
  requireVisibleProject(principal, project);
  return project;
}
