// A sent invitation shows as pending (when, until when) and can be sent again: a new link, and the
// earlier one stops working. For a client on its page, for a member on the members page.
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { PageSession, visibleText } from '../helpers/page-session.ts';
import { SmtpSink } from '../helpers/smtp.ts';
import { systemPrincipal } from '../../src/modules/access/principal.ts';

const smtp = await SmtpSink.start();
afterAll(() => smtp.close());
const api = useTestApi({ SMTP_URL: smtp.url });
const linkIn = (text: string) => /http:\/\/sitewright\.test(\/invitations\/[A-Za-z0-9_-]+)/.exec(text)![1]!;

describe('pending invitations', () => {
  it('of a client: shown with dates, sent again with a new link that replaces the old', async () => {
    const owner = await PageSession.signIn(api.app, api.ctx, api.org.id, 'owner');
    const client = await api.ctx.services.clients.create(systemPrincipal(api.org.id), {
      email: 'pending@client.test',
      name: 'Pending',
    });
    expect(visibleText((await owner.get(`/clients/${client.id}`)).body)).toContain('Send invitation');
    expect((await owner.post(`/clients/${client.id}/invite`)).status).toBe(303);
    const page = visibleText((await owner.get(`/clients/${client.id}`)).body);
    expect(page).toMatch(
      /Invitation pending Sent to pending@client\.test on \d{4}-\d\d-\d\d \d\d:\d\d UTC; the link works until/,
    );
    expect(page).toContain('Send the invitation again');
    expect((await owner.post(`/clients/${client.id}/invite`)).status).toBe(303);
    const [first, second] = (await smtp.waitFor('pending@client.test', 2)).map((m) => linkIn(m.text));
    const visitor = PageSession.anonymous(api.app);
    expect((await visitor.get(first!)).status).toBe(410);
    expect((await visitor.get(second!)).status).toBe(200);
  });

  it('of a member: sent again from the members page', async () => {
    const owner = await PageSession.signIn(api.app, api.ctx, api.org.id, 'owner');
    await owner.get('/settings/members');
    expect(
      (await owner.post('/settings/members/invite', { email: 'again@member.test', role: 'member' })).status,
    ).toBe(303);
    const page = await owner.get('/settings/members');
    const id = /action="\/settings\/members\/invitations\/([0-9a-f-]{36})\/resend"/.exec(page.body)![1]!;
    expect((await owner.post(`/settings/members/invitations/${id}/resend`)).status).toBe(303);
    const [first, second] = (await smtp.waitFor('again@member.test', 2)).map((m) => linkIn(m.text));
    expect((await PageSession.anonymous(api.app).get(first!)).status).toBe(410);
    expect((await PageSession.anonymous(api.app).get(second!)).status).toBe(200);
    const member = await PageSession.signIn(api.app, api.ctx, api.org.id, 'member');
    await member.get('/settings/members');
    expect((await member.post(`/settings/members/invitations/${id}/resend`)).status).toBe(403);
  });
});
