// Set-up of a fresh install, sign-in and sign-out, sign-up (REGISTRATION=open), password reset by
// mailed link, invitations (of members and of clients), the account page and the organization switch.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { InvalidInputError, NotAllowedError } from '../../modules/common/errors.ts';
import { MIN_PASSWORD_LENGTH } from '../../modules/accounts/passwords.ts';
import type { InvitationView } from '../../modules/accounts/members.ts';
import { text, optional, type Form } from '../forms.ts';
import { redirectWith, render } from '../page.ts';
import { clearSessionCookie, requireSignedIn, setSessionCookie } from '../session.ts';
import type { RouteDeps } from '../deps.ts';

/** Where to go after signing in: a path on this site only (never `//host` or `/\host`). */
export function safeNext(next: unknown): string {
  if (typeof next !== 'string' || !next.startsWith('/')) return '/';
  const url = new URL(next, 'http://x.invalid');
  return url.host === 'x.invalid' ? url.pathname + url.search : '/';
}

/** The invitation page's data: titled by the organization while the link can be used. */
function invitationPage(invitation: InvitationView | undefined, token: string, form: Record<string, string>) {
  return {
    title: invitation?.usable ? `Join ${invitation.orgName}` : 'Invitation',
    invitation,
    token,
    form,
    minPassword: MIN_PASSWORD_LENGTH,
  };
}

export function authRoutes(deps: RouteDeps): FastifyPluginAsync {
  const { accounts, buildLinks, members, portal } = deps.services;
  const registration = deps.config.accounts.registration;
  const signedInAs = async (reply: FastifyReply, userId: string, orgId: string | null) => {
    setSessionCookie(reply, await accounts.openSession(userId, orgId), deps.cookies);
  };
  /** Re-renders a form with the error a domain rule raised (400), keeping what was typed. */
  const withError = async (
    request: FastifyRequest,
    reply: FastifyReply,
    view: string,
    data: Record<string, unknown> & { title: string },
    error: unknown,
  ) => {
    if (error instanceof InvalidInputError || error instanceof NotAllowedError) {
      return render(
        request,
        reply,
        view,
        { ...data, error: error.message },
        error instanceof NotAllowedError ? 403 : 400,
      );
    }
    throw error;
  };

  return async (app) => {
    app.get('/setup', async (request, reply) => {
      if (!(await accounts.needsSetup())) return reply.redirect('/sign-in', 303);
      return render(request, reply, 'setup', { title: 'Set up', form: {}, minPassword: MIN_PASSWORD_LENGTH });
    });
    app.post<{ Body: Form }>('/setup', async (request, reply) => {
      const form = request.body ?? {};
      const data = { title: 'Set up', form, minPassword: MIN_PASSWORD_LENGTH };
      try {
        const { user, orgId } = await accounts.setUp({
          email: text(form, 'email'),
          password: text(form, 'password'),
          name: optional(form, 'name') ?? null,
          orgName: text(form, 'org_name'),
        });
        await signedInAs(reply, user.id, orgId);
        return redirectWith(
          reply,
          '/settings/ai-model?setup=1',
          'Welcome to Sitewright. Your organization is ready.',
        );
      } catch (error) {
        return withError(request, reply, 'setup', data, error);
      }
    });

    app.get<{ Querystring: { next?: string } }>('/sign-in', async (request, reply) => {
      if (await accounts.needsSetup()) return reply.redirect('/setup', 303);
      if (request.signedIn) return reply.redirect(safeNext(request.query.next), 303);
      return render(request, reply, 'sign-in', {
        title: 'Sign in',
        form: {},
        next: safeNext(request.query.next),
        registration,
      });
    });
    app.post<{ Body: Form }>('/sign-in', async (request, reply) => {
      const form = request.body ?? {};
      const next = safeNext(text(form, 'next'));
      try {
        const { token } = await accounts.signIn(text(form, 'email'), text(form, 'password'), request.ip);
        setSessionCookie(reply, token, deps.cookies);
        return reply.redirect(next, 303);
      } catch (error) {
        return withError(
          request,
          reply,
          'sign-in',
          { title: 'Sign in', form: { email: text(form, 'email') }, next, registration },
          error,
        );
      }
    });

    app.get('/sign-up', async (request, reply) => {
      return render(
        request,
        reply,
        'sign-up',
        { title: 'Create your account', form: {}, registration, minPassword: MIN_PASSWORD_LENGTH },
        registration === 'open' ? 200 : 403,
      );
    });
    app.post<{ Body: Form }>('/sign-up', async (request, reply) => {
      const form = request.body ?? {};
      const data = { title: 'Create your account', form, registration, minPassword: MIN_PASSWORD_LENGTH };
      try {
        const { email } = await accounts.signUp(
          {
            email: text(form, 'email'),
            password: text(form, 'password'),
            name: optional(form, 'name') ?? null,
            orgName: text(form, 'org_name'),
          },
          request.ip,
        );
        return render(request, reply, 'sign-up-sent', { title: 'Check your email', email, build: false });
      } catch (error) {
        return withError(request, reply, 'sign-up', data, error);
      }
    });

    // The link mailed at sign-up: a page first (mail scanners follow links), then a button.
    app.get<{ Params: { token: string } }>('/sign-up/confirm/:token', async (request, reply) => {
      const pending = await accounts.signups.find(request.params.token);
      return render(
        request,
        reply,
        'sign-up-confirm',
        { title: 'Confirm your email', pending, token: request.params.token },
        pending ? 200 : 410,
      );
    });
    app.post<{ Params: { token: string }; Body: Form }>('/sign-up/confirm/:token', async (request, reply) => {
      const { token } = request.params;
      const pending = await accounts.signups.find(token);
      if (!pending)
        return render(
          request,
          reply,
          'sign-up-confirm',
          { title: 'Confirm your email', pending, token },
          410,
        );
      try {
        await accounts.checkSignUpPassword(token, pending, text(request.body ?? {}, 'password'));
        if (pending.kind === 'build') {
          const { user, project, problem } = await buildLinks.confirmSignUp(token, pending);
          await signedInAs(reply, user.id, null);
          if (!project)
            return redirectWith(
              reply,
              '/portal',
              `Your account is ready, but your website could not be built: ${problem} Ask ${pending.orgName} for help.`,
            );
          return reply.redirect(`/app/projects/${project.id}`, 303);
        }
        const { user, orgId } = await accounts.confirmSignUp(token);
        await signedInAs(reply, user.id, orgId);
        return redirectWith(reply, '/', 'Your account and organization are ready.');
      } catch (error) {
        return withError(
          request,
          reply,
          'sign-up-confirm',
          { title: 'Confirm your email', pending, token },
          error,
        );
      }
    });

    app.post('/sign-out', async (request, reply) => {
      if (request.signedIn) await accounts.signOut(request.signedIn.sessionHash);
      clearSessionCookie(reply, deps.cookies);
      return redirectWith(reply, '/sign-in', 'You are signed out.');
    });
    app.post('/sign-out-everywhere', async (request, reply) => {
      const who = requireSignedIn(request);
      await accounts.signOutEverywhere(who.user.id);
      clearSessionCookie(reply, deps.cookies);
      return redirectWith(
        reply,
        '/sign-in',
        'You are signed out on every device, and connected apps are disconnected.',
      );
    });

    app.get('/forgot-password', async (request, reply) =>
      render(request, reply, 'forgot-password', { title: 'Reset your password', form: {}, sent: false }),
    );
    app.post<{ Body: Form }>('/forgot-password', async (request, reply) => {
      const form = request.body ?? {};
      await accounts.requestPasswordReset(text(form, 'email'), request.ip);
      return render(request, reply, 'forgot-password', { title: 'Reset your password', form, sent: true });
    });
    app.get<{ Params: { token: string } }>('/reset-password/:token', async (request, reply) => {
      const usable = await accounts.resetLinkUsable(request.params.token);
      return render(
        request,
        reply,
        'reset-password',
        {
          title: 'Choose a new password',
          token: request.params.token,
          usable,
          minPassword: MIN_PASSWORD_LENGTH,
        },
        usable ? 200 : 410,
      );
    });
    app.post<{ Params: { token: string }; Body: Form }>('/reset-password/:token', async (request, reply) => {
      const form = request.body ?? {};
      try {
        await accounts.resetPassword(request.params.token, text(form, 'password'));
        clearSessionCookie(reply, deps.cookies);
        return redirectWith(
          reply,
          '/sign-in',
          'Your password is changed, every device is signed out and connected apps are disconnected. Sign in with the new one.',
        );
      } catch (error) {
        const data = {
          title: 'Choose a new password',
          token: request.params.token,
          usable: await accounts.resetLinkUsable(request.params.token),
          minPassword: MIN_PASSWORD_LENGTH,
        };
        return withError(request, reply, 'reset-password', data, error);
      }
    });

    app.get<{ Params: { token: string } }>('/invitations/:token', async (request, reply) => {
      const invitation = await members.describeInvitation(request.params.token);
      const data = invitationPage(invitation, request.params.token, {});
      return render(request, reply, 'invitation', data, invitation?.usable ? 200 : 410);
    });
    app.post<{ Params: { token: string }; Body: Form }>('/invitations/:token', async (request, reply) => {
      const { token } = request.params;
      const form = request.body ?? {};
      const invitation = await members.describeInvitation(token);
      const data = invitationPage(invitation, token, { name: text(form, 'name') });
      if (!invitation?.usable) return render(request, reply, 'invitation', data, 410);
      try {
        if (invitation.kind === 'client') {
          const { user } = await portal.accept(token, text(form, 'password'), optional(form, 'name') ?? null);
          await signedInAs(reply, user.id, null);
          return redirectWith(reply, '/portal', `Welcome! This is your portal with ${invitation.orgName}.`);
        }
        const signedIn = request.signedIn?.user;
        const user = await members.acceptInvitation(
          token,
          signedIn
            ? { signedIn }
            : { password: text(form, 'password'), name: optional(form, 'name') ?? null },
        );
        if (signedIn)
          await accounts.switchOrg(
            {
              ...request.signedIn!,
              orgs: [{ id: invitation.orgId, name: invitation.orgName, role: invitation.role ?? 'member' }],
            },
            invitation.orgId,
          );
        else await signedInAs(reply, user.id, invitation.orgId);
        return redirectWith(reply, '/', `You joined ${invitation.orgName}.`);
      } catch (error) {
        return withError(request, reply, 'invitation', data, error);
      }
    });

    app.get('/account', async (request, reply) => {
      requireSignedIn(request);
      return render(request, reply, 'account', { title: 'Your account', minPassword: MIN_PASSWORD_LENGTH });
    });
    app.post<{ Body: Form }>('/account/password', async (request, reply) => {
      const who = requireSignedIn(request);
      const form = request.body ?? {};
      try {
        await accounts.changePassword(who.user.id, text(form, 'current_password'), text(form, 'password'));
        // Every session ended with the change; this browser gets a fresh one.
        await signedInAs(reply, who.user.id, who.org?.id ?? null);
        return redirectWith(
          reply,
          '/account',
          'Your password is changed. Other devices are signed out, and connected apps are disconnected: connect them again.',
        );
      } catch (error) {
        return withError(
          request,
          reply,
          'account',
          { title: 'Your account', minPassword: MIN_PASSWORD_LENGTH },
          error,
        );
      }
    });
    app.post<{ Body: Form }>('/switch-organization', async (request, reply) => {
      const who = requireSignedIn(request);
      await accounts.switchOrg(who, text(request.body ?? {}, 'org_id'));
      return redirectWith(reply, '/', undefined);
    });
  };
}
