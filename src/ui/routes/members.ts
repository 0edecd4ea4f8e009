// Members of the organization: everyone sees who is in it; owners and admins invite by email
// (MembersService mails the link), cancel pending invitations, change roles and remove members.
// The rules (only an owner makes or unmakes owners, an organization keeps an owner) are the
// service's; the page shows its refusals beside the list.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { canManage, isRole, ROLES, type Role } from '../../modules/accounts/roles.ts';
import { InvalidInputError, NotAllowedError } from '../../modules/common/errors.ts';
import type { RouteDeps } from '../deps.ts';
import { text, type Form } from '../forms.ts';
import { redirectWith, render } from '../page.ts';
import { requireSeat, seatPrincipal, type SignedInMember } from '../session.ts';
import { idFromUrl } from '../ids.ts';

const roleOf = (form: Form): Role => {
  const role = text(form, 'role');
  if (!isRole(role)) throw new InvalidInputError('Choose a role: owner, admin or member');
  return role;
};

export function memberRoutes(deps: RouteDeps): FastifyPluginAsync {
  const { members } = deps.services;

  const page = async (
    request: FastifyRequest,
    reply: FastifyReply,
    seat: SignedInMember,
    extra: Record<string, unknown> = {},
    status = 200,
  ) => {
    const { members: list, invitations } = await members.list(seatPrincipal(seat));
    return render(
      request,
      reply,
      'members',
      {
        title: 'Members',
        members: list,
        invitations,
        roles: ROLES,
        me: seat.who.user.id,
        role: seat.role,
        manage: canManage(seat.role),
        form: {},
        error: null,
        ...extra,
      },
      status,
    );
  };

  /** Runs a manager's change; a refusal of the service re-renders the list with its message. */
  const change = async (
    request: FastifyRequest,
    reply: FastifyReply,
    action: (seat: SignedInMember) => Promise<string>,
    extra: Record<string, unknown> = {},
  ) => {
    const seat = requireSeat(request, { manage: true });
    try {
      return redirectWith(reply, '/settings/members', await action(seat));
    } catch (error) {
      if (error instanceof InvalidInputError)
        return page(request, reply, seat, { ...extra, error: error.message }, 400);
      if (error instanceof NotAllowedError)
        return page(request, reply, seat, { ...extra, error: error.message }, 403);
      throw error;
    }
  };

  return async (app) => {
    app.get('/settings/members', async (request, reply) => page(request, reply, requireSeat(request)));

    app.post<{ Body: Form }>('/settings/members/invite', async (request, reply) => {
      const form = request.body ?? {};
      return change(
        request,
        reply,
        async (seat) => {
          const invitation = await members.invite(
            seatPrincipal(seat),
            seat.orgName,
            seat.who.user,
            text(form, 'email'),
            roleOf(form),
          );
          return `Invitation sent to ${invitation.email}. The link works for 7 days.`;
        },
        { form },
      );
    });
    app.post<{ Params: { id: string } }>('/settings/members/invitations/:id/resend', async (request, reply) =>
      change(request, reply, async (seat) => {
        const invitation = await members.resendInvitation(
          seatPrincipal(seat),
          seat.orgName,
          seat.who.user,
          idFromUrl(request.params.id, 'Invitation'),
        );
        return `Invitation sent again to ${invitation.email}. The new link works for 7 days; the earlier one no longer does.`;
      }),
    );
    app.post<{ Params: { id: string } }>('/settings/members/invitations/:id/cancel', async (request, reply) =>
      change(request, reply, async (seat) => {
        await members.cancelInvitation(seatPrincipal(seat), idFromUrl(request.params.id, 'Invitation'));
        return 'Invitation cancelled: its link no longer works.';
      }),
    );
    app.post<{ Params: { id: string }; Body: Form }>('/settings/members/:id/role', async (request, reply) =>
      change(request, reply, async (seat) => {
        const role = roleOf(request.body ?? {});
        await members.changeRole(seatPrincipal(seat), idFromUrl(request.params.id, 'Member'), role);
        return `Role changed to ${role}.`;
      }),
    );
    app.post<{ Params: { id: string } }>('/settings/members/:id/remove', async (request, reply) =>
      change(request, reply, async (seat) => {
        const userId = idFromUrl(request.params.id, 'Member');
        const member = (await members.list(seatPrincipal(seat))).members.find((m) => m.id === userId);
        await members.remove(seatPrincipal(seat), userId);
        return `${member?.email ?? 'The member'} was removed from ${seat.orgName}.`;
      }),
    );
  };
}
