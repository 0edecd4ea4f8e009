// The client portal: an agency invites a client by email; accepting creates the client's account
// under the id its projects already carry (Project.user_id) and makes the client `active`, with a
// client.updated event. A signed-in client then sees only its own projects.
import type { Database } from '../../db/index.ts';
import { nowIso, toIso } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { invalid, notFound } from '../common/errors.ts';
import type { ClientsService } from '../clients/service.ts';
import type { Client } from '../clients/schema.ts';
import type { Mailer } from '../mail/mailer.ts';
import { INVITATION_TTL_MS } from './members.ts';
import * as orgRepo from '../orgs/repo.ts';
import * as repo from './repo.ts';
import type { AccountsService, User } from './service.ts';
import { agencyOrg } from '../access/access.ts';
import { systemPrincipal, type Principal } from '../access/principal.ts';

const REFUSAL = "Inviting a client is for the agency's team";

export interface ClientInvitation {
  client_id: string;
  email: string;
  expires_at: string;
}

export class PortalService {
  constructor(
    private readonly database: Database,
    private readonly accounts: AccountsService,
    private readonly clients: ClientsService,
    private readonly mailer: Mailer,
    private readonly publicUrl: string,
  ) {}

  private get db() {
    return this.database.db;
  }

  /** Emails the client a link to the agency's portal. A client that already has its account gets a 400. */
  async invite(principal: Principal, clientId: string): Promise<ClientInvitation> {
    const orgId = agencyOrg(principal, 'write', REFUSAL);
    // Read as the system: a key that may write invites without being able to read.
    const client = await this.clients.get(systemPrincipal(orgId), clientId);
    if (client.status === 'suspended' || client.status === 'churned') {
      throw invalid(
        `Client ${client.email} is ${client.status}: reactivate it before inviting it to the portal`,
      );
    }
    const row = await repo.findClientUser(this.db, orgId, clientId);
    if (!row) throw notFound('Client');
    if (await repo.findUserById(this.db, row.user_id))
      throw invalid(`Client ${client.email} already has access to the portal`);
    const orgName = await orgRepo.orgName(this.db, orgId);
    const token = newToken();
    const now = Date.now();
    const expiresAt = new Date(now + INVITATION_TTL_MS).toISOString();
    // Sending again replaces the earlier invitation: only the newest link works.
    await repo.deleteUnacceptedClientInvitations(this.db, orgId, clientId);
    await repo.insertInvitation(this.db, {
      id: newId(),
      org_id: orgId,
      kind: 'client',
      email: client.email,
      role: null,
      client_id: clientId,
      token_hash: hashToken(token),
      invited_by: null,
      created_at: new Date(now).toISOString(),
      expires_at: expiresAt,
      accepted_at: null,
    });
    const greeting = client.name ? `Hello ${client.name},` : 'Hello,';
    await this.mailer.send({
      to: client.email,
      subject: `Your website with ${orgName}`,
      text: `${greeting}\n\n${orgName} invites you to your website portal, where you can see your website, its visitors and the messages sent through its forms.\n\nCreate your account here (the link works for 7 days):\n${this.publicUrl}/invitations/${token}\n`,
    });
    return { client_id: clientId, email: client.email, expires_at: expiresAt };
  }

  /** The client's invitation still waiting to be accepted (sent, expires), if any. */
  async pendingInvitation(
    orgId: string,
    clientId: string,
  ): Promise<{ created_at: string; expires_at: string } | undefined> {
    const row = await repo.findUnacceptedClientInvitation(this.db, orgId, clientId);
    return row && { created_at: toIso(row.created_at), expires_at: toIso(row.expires_at) };
  }

  /** Creates the client's account with `password` and makes the client active. Works once. */
  async accept(
    token: string,
    password: string,
    name: string | null,
  ): Promise<{ user: User; client: Client }> {
    const invitation = await repo.findInvitation(this.db, hashToken(token));
    if (
      !invitation ||
      invitation.kind !== 'client' ||
      !invitation.client_id ||
      invitation.accepted_at !== null ||
      new Date(toIso(invitation.expires_at)).getTime() <= Date.now()
    ) {
      throw invalid('This invitation has expired or was already used. Ask the agency for a new one.');
    }
    const { org_id: orgId, client_id: clientId } = invitation;
    const row = await repo.findClientForPortal(this.db, orgId, clientId);
    if (!row) throw invalid('This invitation is no longer valid: the client was removed');
    // A portal account is the client's own (its id is the one the client's projects carry): an
    // email that already signs in here (a member, another agency's client) cannot take it. Only
    // the invitee learns it, here: the agency inviting is never told whether an email has an
    // account elsewhere. Said in the agency's words, not Sitewright's.
    if (await repo.findUserByEmail(this.db, row.email))
      throw invalid(
        `${row.email} already has an account here: ask the agency to invite another email address`,
      );
    let client: Client | undefined;
    const user = await this.accounts.createUser(
      { id: row.user_id, email: row.email, password, name },
      async (trx) => {
        if (!(await repo.markInvitationAccepted(trx, invitation.id, nowIso())))
          throw invalid('This invitation was already used');
        client =
          row.status === 'invited'
            ? await this.clients.updateIn(trx, orgId, clientId, { status: 'active' })
            : await this.clients.get(systemPrincipal(orgId), clientId);
      },
    );
    if (!client) throw notFound('Client');
    return { user, client };
  }
}
