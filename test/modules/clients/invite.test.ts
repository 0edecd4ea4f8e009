// POST /clients/{id}/invite: the mail reaches a real SMTP server, and accepting the emailed link
// makes the client active with a client.updated event delivered to a real webhook receiver.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../../helpers/app.ts';
import { Receiver } from '../../helpers/receiver.ts';
import { SmtpSink } from '../../helpers/smtp.ts';

const smtp = await SmtpSink.start();
const api = useTestApi(
  {
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Sitewright <no-reply@sitewright.test>',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_SCHEDULE: '0ms,50ms',
    WEBHOOK_POLL_INTERVAL: '20ms',
  },
  { dispatcher: true },
);
let receiver: Receiver;
beforeAll(async () => (receiver = await Receiver.start()));
afterAll(async () => {
  await receiver.close();
  await smtp.close();
});

let n = 0;
async function newClient(status?: string) {
  const email = `client-${++n}-${process.pid}@example.com`;
  const res = await api.post('/api/v1/clients', { email, name: 'Ann' });
  expect(res.status).toBe(201);
  if (status) expect((await api.patch(`/api/v1/clients/${res.body.client.id}`, { status })).status).toBe(200);
  return { id: res.body.client.id as string, email };
}

const tokenIn = (text: string) => /http:\/\/sitewright\.test\/invitations\/(\S+)/.exec(text)?.[1];

describe('POST /clients/{id}/invite', () => {
  it('emails the accept link; accepting makes the client active with a client.updated event', async () => {
    const hook = await api.post('/api/v1/webhooks', {
      url: receiver.url('/invite'),
      events: ['client.updated'],
    });
    expect(hook.status).toBe(201);
    const client = await newClient();

    const res = await api.request('POST', `/api/v1/clients/${client.id}/invite`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      invitation: { client_id: client.id, email: client.email, expires_at: expect.any(String) },
    });
    const days = (Date.parse(res.body.invitation.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);

    const [mail] = await smtp.waitFor(client.email);
    expect(mail!.from).toBe('no-reply@sitewright.test');
    expect(mail!.subject).toBe(`Your website with ${api.org.name}`);
    const token = tokenIn(mail!.text);
    expect(token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(JSON.stringify(res.body)).not.toContain(token);

    const { client: accepted, user } = await api.ctx.services.portal.accept(
      token!,
      'a long enough password',
      'Ann',
    );
    expect(accepted.status).toBe('active');
    expect(user.email).toBe(client.email);
    expect((await api.get(`/api/v1/clients/${client.id}`)).body.client.status).toBe('active');

    const [delivery] = await receiver.waitFor('/invite', 1);
    expect(delivery!.json).toMatchObject({
      type: 'client.updated',
      data: { client: { id: client.id, status: 'active' }, previous_attributes: { status: 'invited' } },
    });
    expect(delivery!.json.data.client).toEqual((await api.get(`/api/v1/clients/${client.id}`)).body.client);

    // Now it has its account: a second invitation is refused, and sends nothing.
    const again = await api.request('POST', `/api/v1/clients/${client.id}/invite`);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: `Client ${client.email} already has access to the portal` });
    expect(smtp.to(client.email)).toHaveLength(1);
  });

  it('takes an empty JSON object too, and refuses a field', async () => {
    const client = await newClient();
    expect((await api.post(`/api/v1/clients/${client.id}/invite`, {})).status).toBe(200);
    const refused = await api.post(`/api/v1/clients/${client.id}/invite`, { email: 'other@example.com' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: "unknown field 'email'" });
    await smtp.waitFor(client.email, 1);
    expect(smtp.to('other@example.com')).toEqual([]);
  });

  it.each(['suspended', 'churned'])('refuses a %s client, sending nothing', async (status) => {
    const client = await newClient(status);
    const res = await api.request('POST', `/api/v1/clients/${client.id}/invite`);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(`is ${status}`);
    expect(Object.keys(res.body)).toEqual(['error']);
    expect(smtp.to(client.email)).toEqual([]);
  });

  it('tells only the invitee, when accepting, that its email already has an account: the agency learns nothing of other tenants', async () => {
    // Whether an email has an account elsewhere is no business of the agency inviting: the
    // invitation goes out as to anyone else.
    const taken = await newClient();
    await api.ctx.services.accounts.createUser({
      email: taken.email.toUpperCase(),
      password: 'a long enough password',
      name: 'Member elsewhere',
    });
    const res = await api.request('POST', `/api/v1/clients/${taken.id}/invite`);
    expect(res.status).toBe(200);
    const token = tokenIn((await smtp.waitFor(taken.email))[0]!.text)!;
    await expect(api.ctx.services.portal.accept(token, 'another long password', 'Ann')).rejects.toThrow(
      `${taken.email} already has an account here: ask the agency to invite another email address`,
    );
    expect((await api.get(`/api/v1/clients/${taken.id}`)).body.client.status).toBe('invited');
  });

  it("answers 404 for another organization's client and for a missing one, 400 for a malformed id", async () => {
    const other = await api.newOrg('Other');
    const theirs = (
      await api.post('/api/v1/clients', { email: `theirs-${process.pid}@example.com` }, { key: other.key })
    ).body.client;
    const res = await api.request('POST', `/api/v1/clients/${theirs.id}/invite`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Client not found' });
    expect(
      (await api.request('POST', '/api/v1/clients/01a20225-2fef-73dd-be9d-af188b7b1886/invite')).status,
    ).toBe(404);
    expect((await api.request('POST', '/api/v1/clients/nope/invite')).status).toBe(400);
    expect(smtp.to(theirs.email)).toEqual([]);
  });

  it('needs the write permission', async () => {
    const client = await newClient();
    const res = await api.request('POST', `/api/v1/clients/${client.id}/invite`, undefined, {
      key: api.readKey,
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "This API key lacks the 'write' permission" });
    expect(
      (await api.request('POST', `/api/v1/clients/${client.id}/invite`, undefined, { key: api.writeKey }))
        .status,
    ).toBe(200);
  });

  it('is documented in the OpenAPI document with its answer', async () => {
    const doc = (await api.get('/api/v1/docs', { key: null })).body;
    const op = doc.paths['/api/v1/clients/{clientId}/invite'].post;
    expect(op.summary).toBe('Invite a client to the portal');
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '403', '404']));
  });
});
