// Who may open a project in the builder: a member of the project's organization (any role), or
// the project's own client signed in to the portal. Signed out: the sign-in page (and back here
// after). Anyone else, including another client of the same agency: the 404 page, as if the
// project did not exist.
import type { FastifyRequest } from 'fastify';
import { NotFoundError, notFound } from '../../modules/common/errors.ts';
import type { Project } from '../../modules/projects/schema.ts';
import type { Services } from '../../modules/index.ts';
import { idFromUrl } from '../ids.ts';
import { requireSignedIn } from '../session.ts';
import { clientPrincipal, memberPrincipal, type Principal } from '../../modules/access/principal.ts';
import type { LiveSession } from '../../modules/embed/service.ts';

export interface BuilderScope {
  /** Who is asking, as the core takes it: the member, or the project's own client. */
  principal: Principal;
  orgId: string;
  orgName: string;
  project: Project;
  /** A client in the portal (or a host product's user in an embed frame), not an agency member. */
  asClient: boolean;
  /** Where this project's builder answers: `/app/projects/{id}`, or `/embed/s/{frame}/projects/{id}` in a frame. */
  base: string;
  /** The embed session of a frame (builder/embed-scope.ts); null on Sitewright's own pages. */
  embed: LiveSession | null;
  /** The frame's id (the session its page was opened for), in a frame. */
  frameId?: string;
}

export async function builderScope(
  request: FastifyRequest,
  services: Services,
  rawId: string,
): Promise<BuilderScope> {
  const who = requireSignedIn(request);
  const id = idFromUrl(rawId, 'Project');
  const member = memberPrincipal(who);
  if (member && who.org) {
    const project = await unlessMissing(services.projects.get(member, id));
    if (project)
      return {
        principal: member,
        orgId: who.org.id,
        orgName: who.org.name,
        project,
        asClient: false,
        base: `/app/projects/${project.id}`,
        embed: null,
      };
  }
  const client = clientPrincipal(who);
  if (client && who.client) {
    const project = await unlessMissing(services.projects.get(client, id));
    if (project)
      return {
        principal: client,
        orgId: who.client.orgId,
        orgName: who.client.orgName,
        project,
        asClient: true,
        base: `/app/projects/${project.id}`,
        embed: null,
      };
  }
  throw notFound('Project');
}

/** The record, or undefined when it does not exist in that organization (other failures pass). */
export function unlessMissing<T>(lookup: Promise<T>): Promise<T | undefined> {
  return lookup.catch((error: unknown) => {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  });
}
