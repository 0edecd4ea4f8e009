// Pages of the dashboard: webhooks (with the delivery log), members, organization settings and the
// API reference, driven through app.inject as signed-in people of different roles. Mail goes to a
// real SMTP server on loopback and test events to a real receiver.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContainer } from '../../src/container.ts';
import { buildServer } from '../../src/main.ts';
import { testConfig, useTestApi } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { PageSession, visibleText } from '../helpers/page-session.ts';
import { Receiver, verify } from '../helpers/receiver.ts';
import { SmtpSink } from '../helpers/smtp.ts';
import { systemPrincipal } from '../../src/modules/access/principal.ts';
import { firstOrgId } from '../../src/modules/backups/repo.ts';

const smtp = await SmtpSink.start();
const api = useTestApi({ SMTP_URL: smtp.url, WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT: '2s' });
let receiver: Receiver;
beforeAll(async () => (receiver = await Receiver.start()));
afterAll(async () => {
  await receiver.close();
  await smtp.close();
});

const as = (role: 'owner' | 'admin' | 'member', orgId = api.org.id) =>
  PageSession.signIn(api.app, api.ctx, orgId, role);
let n = 0;

/** Creates an endpoint through the page; answers the page and the endpoint's id and secret. */
async function createEndpoint(session: PageSession, events = ['client.created', 'project.published']) {
  const path = `/pages-hook-${++n}`;
  const page = await session.post('/settings/webhooks', { url: receiver.url(path), events });
  expect(page.status).toBe(200);
  const [webhook] = (await api.ctx.services.webhooks.list(systemPrincipal(api.org.id), 100, 0)).records;
  return { page, path, id: webhook!.id, secret: /value="(whsec_[^"]+)"/.exec(page.body)?.[1] };
}

describe('webhook pages', () => {
  it('creates an endpoint and shows its secret once, with a copy button', async () => {
    const owner = await as('owner');
    const empty = await owner.get('/settings/webhooks');
    expect(empty.status).toBe(200);
    expect(visibleText(empty.body)).toContain('No endpoints yet.');
    for (const event of [
      'client.created',
      'client.updated',
      'project.created',
      'project.published',
      'payment.received',
      'form.submitted',
    ]) {
      expect(empty.body).toContain(`name="events" value="${event}"`);
    }

    const { page, id, secret, path } = await createEndpoint(owner);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    expect(page.body).toContain('data-copy="#new-secret-value"');
    expect(visibleText(page.body)).toContain('shown only once');
    const webhook = await api.ctx.services.webhooks.get(systemPrincipal(api.org.id), id);
    expect(webhook).toMatchObject({
      url: receiver.url(path),
      events: ['client.created', 'project.published'],
      is_active: true,
    });

    // Never again: not on the list, not on the endpoint's page.
    const list = await owner.get('/settings/webhooks');
    expect(list.body).not.toContain(secret);
    expect(list.body).toContain(`href="/settings/webhooks/${id}"`);
    const detail = await owner.get(`/settings/webhooks/${id}`);
    expect(detail.status).toBe(200);
    expect(detail.body).not.toContain(secret);
    expect(detail.body).not.toContain('whsec_');
  });

  it('refuses a form without events or with a bad URL, keeping what was typed', async () => {
    const owner = await as('admin');
    const none = await owner.post('/settings/webhooks', { url: 'http://127.0.0.1:9/x' });
    expect(none.status).toBe(400);
    expect(visibleText(none.body)).toContain('Choose at least one event');
    expect(none.body).toContain('value="http://127.0.0.1:9/x"');
    const bad = await owner.post('/settings/webhooks', { url: 'not a url', events: ['client.created'] });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('role="alert"');
    expect((await api.ctx.services.webhooks.list(systemPrincipal(api.org.id), 100, 0)).records).toEqual([]);
  });

  it('sends a test event and shows the attempt in the delivery log; retry queues it again', async () => {
    const owner = await as('owner');
    const { id, path, secret } = await createEndpoint(owner);
    receiver.on(path, () => ({ status: 200, body: '{"received":"<yes>"}' }));
    const sent = await owner.post(`/settings/webhooks/${id}/test`);
    expect([sent.status, sent.location]).toEqual([303, `/settings/webhooks/${id}`]);
    const [delivery] = await receiver.waitFor(path, 1);
    expect(verify(secret!, delivery!).standard).toMatchObject({ type: 'webhook.test' });

    const page = await owner.get(`/settings/webhooks/${id}`);
    const text = visibleText(page.body);
    expect(text).toMatch(/Test event sent: the endpoint answered 200 in \d+ ms\./);
    expect(text).toContain('webhook.test');
    expect(text).toContain('succeeded');
    expect(text).toMatch(/200 \d+ ms/);
    // The response excerpt, escaped.
    expect(page.body).toContain('{&quot;received&quot;:&quot;&lt;yes&gt;&quot;}');

    const [logged] = (await api.ctx.services.deliveries.list(systemPrincipal(api.org.id), id, {})).deliveries;
    const retried = await owner.post(`/settings/webhooks/${id}/deliveries/${logged!.id}/retry`);
    expect(retried.status).toBe(303);
    expect(
      (await api.ctx.services.deliveries.list(systemPrincipal(api.org.id), id, {})).deliveries[0],
    ).toMatchObject({
      id: logged!.id,
      status: 'pending',
    });
    expect(visibleText((await owner.get(`/settings/webhooks/${id}`)).body)).toContain('Delivery queued');
  });

  it('edits events, switches off and on, rotates the secret (shown once), deletes', async () => {
    const owner = await as('owner');
    const { id, secret, path } = await createEndpoint(owner);

    const saved = await owner.post(`/settings/webhooks/${id}`, {
      url: receiver.url(path),
      events: ['form.submitted'],
    });
    expect(saved.status).toBe(303);
    expect((await api.ctx.services.webhooks.get(systemPrincipal(api.org.id), id)).events).toEqual([
      'form.submitted',
    ]);
    const noEvents = await owner.post(`/settings/webhooks/${id}`, { url: receiver.url(path) });
    expect(noEvents.status).toBe(400);
    expect(visibleText(noEvents.body)).toContain('Choose at least one event');

    expect((await owner.post(`/settings/webhooks/${id}/active`, { is_active: 'false' })).status).toBe(303);
    expect((await api.ctx.services.webhooks.get(systemPrincipal(api.org.id), id)).is_active).toBe(false);
    const off = await owner.get(`/settings/webhooks/${id}`);
    expect(visibleText(off.body)).toContain('Switch on');
    expect((await owner.post(`/settings/webhooks/${id}/active`, { is_active: 'true' })).status).toBe(303);
    expect((await api.ctx.services.webhooks.get(systemPrincipal(api.org.id), id)).is_active).toBe(true);

    const rotated = await owner.post(`/settings/webhooks/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const next = /value="(whsec_[^"]+)"/.exec(rotated.body)?.[1];
    expect(next).toMatch(/^whsec_/);
    expect(next).not.toBe(secret);
    expect((await owner.get(`/settings/webhooks/${id}`)).body).not.toContain(next);
    // The new secret signs the next delivery.
    await owner.post(`/settings/webhooks/${id}/test`);
    const [delivery] = await receiver.waitFor(path, 1);
    expect(verify(next!, delivery!).standard).toMatchObject({ type: 'webhook.test' });

    const detail = await owner.get(`/settings/webhooks/${id}`);
    expect(detail.body).toMatch(
      new RegExp(`action="/settings/webhooks/${id}/delete" data-confirm="Delete this endpoint\\?`),
    );
    const deleted = await owner.post(`/settings/webhooks/${id}/delete`);
    expect([deleted.status, deleted.location]).toEqual([303, '/settings/webhooks']);
    expect((await api.ctx.services.webhooks.list(systemPrincipal(api.org.id), 100, 0)).records).toEqual([]);
    expect((await owner.get(`/settings/webhooks/${id}`)).status).toBe(404);
  });

  it("answers a 404 page for another organization's endpoint, whatever the action", async () => {
    const other = await api.newOrg('Other');
    const theirs = await api.ctx.services.webhooks.create(systemPrincipal(other.org.id), {
      url: receiver.url('/theirs'),
      events: ['client.created'],
    });
    const owner = await as('owner');
    for (const [method, url] of [
      ['get', `/settings/webhooks/${theirs.id}`],
      ['post', `/settings/webhooks/${theirs.id}`],
      ['post', `/settings/webhooks/${theirs.id}/rotate-secret`],
      ['post', `/settings/webhooks/${theirs.id}/test`],
      ['post', `/settings/webhooks/${theirs.id}/delete`],
      ['get', '/settings/webhooks/not-a-uuid'],
    ] as const) {
      const page =
        method === 'get'
          ? await owner.get(url)
          : await owner.post(url, { url: receiver.url('/mine'), events: ['client.created'] });
      expect(page.status, `${method} ${url}`).toBe(404);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).not.toContain(theirs.secret);
    }
    expect(await api.ctx.services.webhooks.get(systemPrincipal(other.org.id), theirs.id)).toMatchObject({
      url: receiver.url('/theirs'),
      events: ['client.created'],
    });
    expect(receiver.at('/theirs')).toEqual([]);
  });

  it('is for owners and admins only: a member gets 403 pages and changes nothing', async () => {
    const member = await as('member');
    expect((await member.get('/settings/webhooks')).status).toBe(403);
    const post = await member.post('/settings/webhooks', {
      url: receiver.url('/m'),
      events: ['client.created'],
    });
    expect(post.status).toBe(403);
    expect(visibleText(post.body)).toContain('Owners and admins only');
    expect((await api.ctx.services.webhooks.list(systemPrincipal(api.org.id), 100, 0)).records).toEqual([]);
  });
});

describe('members page', () => {
  it('lists members with roles; an invitation is mailed, listed as pending and can be cancelled', async () => {
    const owner = await as('owner');
    await as('member');
    const page = await owner.get('/settings/members');
    expect(page.status).toBe(200);
    const text = visibleText(page.body);
    expect(text).toContain(owner.user.email);
    expect(text).toContain('(you)');

    const email = `invitee-${process.pid}-${++n}@example.com`;
    const invited = await owner.post('/settings/members/invite', { email, role: 'admin' });
    expect([invited.status, invited.location]).toEqual([303, '/settings/members']);
    const [mail] = await smtp.waitFor(email);
    expect(mail!.subject).toBe(`Join ${api.org.name}`);
    expect(mail!.text).toContain('as an admin');
    expect(mail!.text).toMatch(/http:\/\/sitewright\.test\/invitations\/[A-Za-z0-9_-]{20,}/);

    const after = await owner.get('/settings/members');
    expect(visibleText(after.body)).toContain(`Invitation sent to ${email}`);
    expect(visibleText(after.body)).toContain('Pending invitations (1)');
    const invitationId = /action="\/settings\/members\/invitations\/([0-9a-f-]{36})\/cancel"/.exec(
      after.body,
    )?.[1];
    expect((await owner.post(`/settings/members/invitations/${invitationId}/cancel`)).status).toBe(303);
    expect((await api.ctx.services.members.list(systemPrincipal(api.org.id))).invitations).toEqual([]);

    const bad = await owner.post('/settings/members/invite', { email: 'not-an-email', role: 'member' });
    expect(bad.status).toBe(400);
    expect(visibleText(bad.body)).toContain('Enter a valid email address');
    expect(bad.body).toContain('value="not-an-email"');
  });

  it('changes a role, and removing a member takes the organization from their next request', async () => {
    const owner = await as('owner');
    const member = await as('member');
    expect((await member.get('/clients')).status).toBe(200);

    expect((await owner.post(`/settings/members/${member.user.id}/role`, { role: 'admin' })).status).toBe(
      303,
    );
    expect(
      (await api.ctx.services.members.list(systemPrincipal(api.org.id))).members.find(
        (m) => m.id === member.user.id,
      )?.role,
    ).toBe('admin');
    // Now an admin, they may open the managers' pages.
    expect((await member.get('/settings/webhooks')).status).toBe(200);

    const listed = await owner.get('/settings/members');
    expect(listed.body).toContain(
      `action="/settings/members/${member.user.id}/remove" data-confirm="Remove `,
    );
    const removed = await owner.post(`/settings/members/${member.user.id}/remove`);
    expect(removed.status).toBe(303);
    expect(visibleText((await owner.get('/settings/members')).body)).toContain(
      `${member.user.email} was removed`,
    );
    const next = await member.get('/clients');
    expect(next.status).toBe(403);
    expect(visibleText(next.body)).toContain('No organization');
    expect((await member.get('/settings/members')).status).toBe(403);
  });

  it('keeps the last owner: demoting or removing them is refused with the reason', async () => {
    const owner = await as('owner');
    const demote = await owner.post(`/settings/members/${owner.user.id}/role`, { role: 'admin' });
    expect(demote.status).toBe(400);
    expect(visibleText(demote.body)).toContain('An organization must keep at least one owner');
    const remove = await owner.post(`/settings/members/${owner.user.id}/remove`);
    expect(remove.status).toBe(400);
    expect(visibleText(remove.body)).toContain('An organization must keep at least one owner');
    expect((await api.ctx.services.members.list(systemPrincipal(api.org.id))).members).toEqual([
      expect.objectContaining({ id: owner.user.id, role: 'owner' }),
    ]);
    expect((await owner.get('/settings/members')).status).toBe(200);

    // An admin may not touch an owner at all.
    const admin = await as('admin');
    const refused = await admin.post(`/settings/members/${owner.user.id}/remove`);
    expect(refused.status).toBe(403);
    expect(visibleText(refused.body)).toContain('Only an owner can remove an owner');
  });

  it('lets a member see the list but not change it', async () => {
    const owner = await as('owner');
    const member = await as('member');
    const page = await member.get('/settings/members');
    expect(page.status).toBe(200);
    expect(visibleText(page.body)).toContain(owner.user.email);
    expect(page.body).not.toContain('action="/settings/members/invite"');
    expect(page.body).not.toContain('/remove"');
    const email = `sneaky-${process.pid}@example.com`;
    expect((await member.post('/settings/members/invite', { email, role: 'owner' })).status).toBe(403);
    expect((await member.post(`/settings/members/${owner.user.id}/remove`)).status).toBe(403);
    expect((await api.ctx.services.members.list(systemPrincipal(api.org.id))).members).toHaveLength(2);
    expect(smtp.to(email)).toEqual([]);
  });

  it("answers 404 for another organization's member or invitation", async () => {
    const other = await api.newOrg('Other');
    const stranger = await PageSession.signIn(api.app, api.ctx, other.org.id, 'member');
    const owner = await as('owner');
    expect((await owner.post(`/settings/members/${stranger.user.id}/remove`)).status).toBe(404);
    expect(
      (await owner.post('/settings/members/invitations/01a20225-2fef-73dd-be9d-af188b7b1886/cancel')).status,
    ).toBe(404);
    expect((await api.ctx.services.members.list(systemPrincipal(other.org.id))).members).toHaveLength(1);
  });
});

describe('organization settings page', () => {
  it('shows the sites domain and the DNS records of custom domains; managers rename', async () => {
    const owner = await as('owner');
    const page = await owner.get('/settings/organization');
    expect(page.status).toBe(200);
    const text = visibleText(page.body);
    const host = api.ctx.config.sites.domain.replace(/:\d+$/, '');
    expect(text).toContain(`CNAME www.example.com ${host}`);
    expect(text).toContain('TXT _sitewright.www.example.com sitewright-verify=');
    expect(text).toContain(`ALIAS example.com ${host}`);

    const renamed = await owner.post('/settings/organization', { name: `Renamed <b> ${process.pid}-${++n}` });
    expect(renamed.status).toBe(303);
    const after = await owner.get('/settings/organization');
    expect(after.body).toContain(`Renamed &lt;b&gt; ${process.pid}-${n}`);
    expect(after.body).not.toContain('Renamed <b>');
    expect((await api.ctx.services.orgs.findOrg(api.org.id))?.name).toBe(`Renamed <b> ${process.pid}-${n}`);

    const empty = await owner.post('/settings/organization', { name: '   ' });
    expect(empty.status).toBe(400);
    expect(visibleText(empty.body)).toContain('Organization name must not be empty');
  });

  it('shows the apex A record to SITES_IPV4 when it is set', async () => {
    const db = await createTestDatabase();
    const ctx = await createContainer(testConfig(db, { SITES_IPV4: '203.0.113.7' }), {
      rateLimitKeyPrefix: `sw:test:settings-pages-ipv4:${process.pid}`,
    });
    const app = await buildServer(ctx);
    try {
      const org = await ctx.services.orgs.createOrg(`IPv4 ${process.pid}`);
      const owner = await PageSession.signIn(app, ctx, org.id, 'owner');
      const text = visibleText((await owner.get('/settings/organization')).body);
      expect(text).toContain('A example.com 203.0.113.7');
      expect(text).not.toContain('ALIAS');
    } finally {
      await app.close();
      await ctx.close();
      await db.drop();
    }
  });

  it('lets a member read the settings but not rename', async () => {
    const member = await as('member');
    const page = await member.get('/settings/organization');
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('action="/settings/organization"');
    expect((await member.post('/settings/organization', { name: 'Taken over' })).status).toBe(403);
    expect((await api.ctx.services.orgs.findOrg(api.org.id))?.name).toBe(api.org.name);
  });
});

describe('API reference page', () => {
  it('lists every path and operation of the served document, and the JSON stays served', async () => {
    const json = await api.get('/api/v1/docs', { key: null });
    expect(json.status).toBe(200);
    expect(String(json.headers['content-type'])).toContain('application/json');
    const doc = json.body;
    const member = await as('member');
    const page = await member.get('/docs/api');
    expect(page.status).toBe(200);
    expect(page.body).toContain('href="/api/v1/docs"');
    expect(page.body).not.toMatch(/<script[^>]+src="https?:/);
    expect(page.body).not.toMatch(/<link[^>]+href="https?:/);
    let operations = 0;
    for (const [path, item] of Object.entries(
      doc.paths as Record<string, Record<string, { summary?: string }>>,
    )) {
      expect(page.body, path).toContain(`<code class="path">${path}</code>`);
      for (const [method, op] of Object.entries(item)) {
        operations++;
        const title = new RegExp(
          `<span class="method ${method}">${method.toUpperCase()}</span> <code class="path">${path.replace(/[{}]/g, '\\$&')}</code>`,
        );
        expect(page.body, `${method} ${path}`).toMatch(title);
        if (op.summary) expect(page.body).toContain(op.summary.replace(/'/g, '&#39;'));
      }
    }
    expect(page.body.match(/<section class="card api-op"/g)).toHaveLength(operations);
    // Fields of a request body and of a response, with their types.
    const text = visibleText(page.body);
    expect(text).toContain('email required string (email), ≤ 254 chars');
    expect(text).toContain('invitation required ClientInvitation');
    expect(text).toContain('webhookId required path string (uuid)');
  });

  it('needs a signed-in member', async () => {
    const res = await api.app.inject({ url: '/docs/api' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/sign-in?next=%2Fdocs%2Fapi');
  });
});

describe('the backups page', () => {
  it("lists the installation's backups with their sizes to the owners of its first organization, and tells others who sees them", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sitewright-page-backups-'));
    const made = await api.ctx.services.backups.backupNow([dir], false);
    const first = (await firstOrgId(api.ctx.database.db))!;
    const page = await (await as('owner', first)).get('/settings/backups');
    expect(page.status).toBe(200);
    const text = visibleText(page.body);
    expect(text).toContain('BACKUP_DIR is not set');
    expect(text).toContain(made.paths[0]!.split('/').pop()!);
    expect(text).toContain(dir);
    expect(text).toMatch(/succeeded/);
    expect(text).toMatch(/Last success: \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    // An admin of the first organization, and the owner of another (an agency that signed up).
    const signedUp = await api.ctx.services.orgs.createOrg(`Signed-up agency ${Date.now()}`);
    for (const session of [await as('admin', first), await as('owner', signedUp.id)]) {
      const other = await session.get('/settings/backups');
      expect(other.status).toBe(200);
      expect(visibleText(other.body)).toContain('only the owners of its first organization');
      expect(other.body).not.toContain(dir);
    }
  });
});
