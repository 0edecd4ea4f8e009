// The OAuth consent page (`/oauth/authorize`) and the "Connected apps" page. The consent page is
// for the signed-in person (signed out: the sign-in page first, and back here): it names the
// application, where it will be sent back to (with a warning for a loopback address, which any
// program on the person's machine could be), and the organization the access is for. Approving
// makes a grant of that person in that organization; either answer goes back to the application
// with `iss` (RFC 9207). The pages' policy forbids framing, so it cannot be clickjacked.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { OAuthRequestError, type AuthorizationRequest } from '../../modules/oauth/service.ts';
import { isLoopback } from '../../modules/oauth/clients.ts';
import type { RouteDeps } from '../deps.ts';
import { text, type Form } from '../forms.ts';
import { allowFormTarget, redirectWith, render } from '../page.ts';
import { requireSignedIn } from '../session.ts';
import { idFromUrl } from '../ids.ts';

const PARAMS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'state',
  'code_challenge',
  'code_challenge_method',
  'resource',
  'scope',
] as const;

export function oauthConsentRoutes(deps: RouteDeps): FastifyPluginAsync {
  const { oauth } = deps.services;
  const back = (reply: FastifyReply, redirectUri: string, params: Record<string, string | undefined>) => {
    const url = new URL(redirectUri);
    for (const [k, v] of Object.entries({ ...params, iss: oauth.issuer }))
      if (v !== undefined) url.searchParams.set(k, v);
    return reply.redirect(url.toString(), 303);
  };
  /**
   * A request the application made wrongly: back to it when its redirect URI is known and the
   * person already approved this application; else a page. (Anyone can register a client, so an
   * error redirect to one never approved would send a signed-in person anywhere, unasked.)
   */
  const refused = async (
    request: FastifyRequest,
    reply: FastifyReply,
    error: unknown,
    clientId: string | undefined,
  ) => {
    if (!(error instanceof OAuthRequestError)) throw error;
    const to = (error as OAuthRequestError & { redirectUri?: string; state?: string }).redirectUri;
    const userId = requireSignedIn(request).user.id;
    if (to && clientId && (await oauth.hasApproved(userId, clientId))) {
      return back(reply, to, {
        error: error.code,
        error_description: error.message,
        state: (error as { state?: string }).state,
      });
    }
    return render(
      request,
      reply,
      'error',
      {
        title: 'This sign-in link is not valid',
        message: `${error.message} (${error.code}). Go back to the application and start again.`,
      },
      400,
    );
  };
  const orgChoices = (request: FastifyRequest) => {
    const who = requireSignedIn(request);
    if (who.client && !who.org)
      return [
        { id: who.client.orgId, name: `${who.client.orgName} (your websites)`, clientId: who.client.id },
      ];
    return who.orgs.map((o) => ({ id: o.id, name: o.name, clientId: null as string | null }));
  };
  const consentPage = (
    request: FastifyRequest,
    reply: FastifyReply,
    auth: AuthorizationRequest,
    raw: Record<string, string | undefined>,
  ) => {
    // Either answer is a 303 to the application's redirect URI, on its own origin.
    allowFormTarget(reply, auth.redirectUri);
    return render(request, reply, 'oauth-consent', {
      title: `Allow ${auth.client.name}?`,
      client: auth.client,
      redirectHost: new URL(auth.redirectUri).host,
      loopback: isLoopback(auth.redirectUri),
      orgs: orgChoices(request),
      currentOrg: request.signedIn?.org?.id ?? null,
      params: PARAMS.map((name) => [name, raw[name] ?? '']),
    });
  };

  return async (app) => {
    app.get<{ Querystring: Record<string, string | undefined> }>(
      '/oauth/authorize',
      async (request, reply) => {
        requireSignedIn(request);
        try {
          const auth = await oauth.checkAuthorization(request.query);
          return consentPage(request, reply, auth, request.query);
        } catch (error) {
          return refused(request, reply, error, request.query.client_id);
        }
      },
    );

    app.post<{ Body: Form }>('/oauth/authorize', async (request, reply) => {
      const who = requireSignedIn(request);
      const form = request.body ?? {};
      const raw = Object.fromEntries(PARAMS.map((name) => [name, text(form, name) || undefined]));
      let auth: AuthorizationRequest;
      try {
        auth = await oauth.checkAuthorization(raw);
      } catch (error) {
        return refused(request, reply, error, raw.client_id);
      }
      if (text(form, 'decision') !== 'allow')
        return back(reply, auth.redirectUri, {
          error: 'access_denied',
          error_description: 'The person declined',
          state: auth.state,
        });
      const choice = orgChoices(request).find((o) => o.id === text(form, 'org_id'));
      if (!choice) return consentPage(request, reply, auth, raw);
      let code: string;
      try {
        code = await oauth.approve(auth, {
          userId: who.user.id,
          orgId: choice.id,
          orgClientId: choice.clientId,
        });
      } catch (error) {
        return refused(request, reply, error, undefined);
      }
      return back(reply, auth.redirectUri, { code, state: auth.state });
    });

    app.get('/account/connected-apps', async (request, reply) => {
      const who = requireSignedIn(request);
      return render(request, reply, 'connected-apps', {
        title: 'Connected apps',
        grants: await oauth.listGrants(who.user.id),
        portal: Boolean(who.client && !who.org),
        agency: who.client?.orgName ?? '',
      });
    });
    app.post<{ Params: { id: string } }>('/account/connected-apps/:id/revoke', async (request, reply) => {
      const who = requireSignedIn(request);
      const revoked = await oauth.revokeOwnGrant(who.user.id, idFromUrl(request.params.id, 'Connected app'));
      return redirectWith(
        reply,
        '/account/connected-apps',
        revoked
          ? 'Access revoked: the application can no longer act for you.'
          : 'That access was already revoked.',
      );
    });
  };
}
