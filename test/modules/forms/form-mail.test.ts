// Form messages reach people: a message posted to a published site is mailed through the outbox
// to the site's form_notify recipients (by default its client) over a real SMTP server on
// loopback, with Reply-To the visitor's address, its fields as text and a link to the messages;
// spam is never mailed; an SMTP server that is down for a while delays the mail, never loses it.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../../helpers/app.ts';
import { createClient, createProject } from '../../helpers/fixtures.ts';
import { SmtpSink } from '../../helpers/smtp.ts';
import { postForm as postSiteForm } from '../../helpers/site-client.ts';
import { freePort } from '../../helpers/server-process.ts';
import { waitUntil } from '../../helpers/wait.ts';
import { MailSender } from '../../../src/modules/mail/sender.ts';
import { queueDigests } from '../../../src/modules/forms/digest.ts';

const smtpPort = await freePort();
const api = useTestApi({
  SITES_DOMAIN: 'sites.test',
  SMTP_URL: `smtp://127.0.0.1:${smtpPort}?ignoreTLS=true`,
  PUBLIC_URL: 'https://app.agency.test',
});
let port: number;
let sender: MailSender;
let sink: SmtpSink | undefined;
beforeAll(async () => {
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  port = (api.app.server.address() as AddressInfo).port;
  sender = new MailSender(api.ctx.database, api.ctx.mailer, {
    retryDelaysMs: [150, 150, 150, 150, 150, 150, 150, 150],
    pollIntervalMs: 40,
  });
  sender.start();
});
afterAll(async () => {
  await sender.stop(1_000);
  await sink?.close();
});

const postForm = (host: string, body: string) => postSiteForm(port, host, body);

async function site(name: string) {
  const client = await createClient(api, { email: `${name.toLowerCase().replace(/\W/g, '')}@client.test` });
  const project = await createProject(api, { client_email: client.email, name });
  await api.post(`/api/v1/projects/${project.id}/publish`, {
    builtFiles: { 'index.html': '<form action="/_forms/contact" method="post"></form>' },
  });
  return { project, client, host: `${project.subdomain}.sites.test` };
}

const outbox = () => api.ctx.database.db.selectFrom('mail_outbox').selectAll().execute();

describe('form mail', () => {
  it('mails the client, as text with Reply-To the visitor, and never mails spam', async () => {
    sink = await SmtpSink.start(smtpPort);
    const { project, client, host } = await site('Luna Bakery');
    const body = new URLSearchParams({
      name: 'Ann <b>Smith</b>',
      email: 'ann@visitor.test',
      message: 'Two loaves, please.\nPicked up on Saturday.',
      _gotcha: '',
    });
    expect(await postForm(host, body.toString())).toBe(303);
    const [mail] = await sink.waitFor(client.email);
    expect(mail!.subject).toBe('New message from the contact form on Luna Bakery');
    expect(mail!.replyTo).toBe('ann@visitor.test');
    expect(mail!.raw).toMatch(/^Content-Type: text\/plain/im);
    expect(mail!.raw).not.toMatch(/text\/html/i);
    expect(mail!.text).toContain('name: Ann <b>Smith</b>');
    expect(mail!.text).toContain('message:\n  Two loaves, please.\n  Picked up on Saturday.');
    expect(mail!.text).toContain(`Every message: https://app.agency.test/portal/projects/${project.id}`);

    // The honeypot filled in: stored nowhere, mailed to nobody.
    const before = (await outbox()).length;
    expect(await postForm(host, 'name=Bot&email=bot%40spam.test&_gotcha=http%3A%2F%2Fspam')).toBe(303);
    await new Promise((r) => setTimeout(r, 200));
    expect((await outbox()).length).toBe(before);
    expect(sink.to(client.email)).toHaveLength(1);
  });

  it('mails every form_notify recipient once; a reply address that is not one is not used', async () => {
    sink ??= await SmtpSink.start(smtpPort);
    const { project, client, host } = await site('Corner Cafe');
    await api.ctx.services.accounts.createMember({
      email: 'nora@agency.test',
      password: 'a long enough password',
      name: 'Nora',
      orgId: api.org.id,
      role: 'owner',
    });
    const settings = await api.patch(`/api/v1/projects/${project.id}/site-settings`, {
      form_notify: ['members', 'Owner@CornerCafe.test', 'client', 'nora@agency.test'],
    });
    expect(settings.status).toBe(200);
    const forged = new URLSearchParams({ email: 'x@y.test\r\nBcc: victim@else.test', message: 'Hi' });
    expect(await postForm(host, forged.toString())).toBe(303);
    const [member] = await sink.waitFor('nora@agency.test');
    const [owner] = await sink.waitFor('owner@cornercafe.test');
    const [toClient] = await sink.waitFor(client.email);
    expect(member!.text).toContain(`Every message: https://app.agency.test/projects/${project.id}`);
    expect(owner!.text).not.toContain('Every message');
    expect(toClient!.text).toContain('/portal/projects/');
    for (const mail of [member, owner, toClient]) expect(mail!.replyTo).toBe('');
    expect(sink.messages.filter((m) => m.to.includes('victim@else.test'))).toEqual([]);
    await new Promise((r) => setTimeout(r, 200));
    expect(sink.to('nora@agency.test')).toHaveLength(1);
  });

  it('keeps a message while the SMTP server is down, and sends it once it is back', async () => {
    await sink?.close();
    sink = undefined;
    const { client, host } = await site('Down Bakery');
    expect(await postForm(host, 'email=bo%40visitor.test&message=Still+there%3F')).toBe(303);
    // Tried, refused, kept for later: at least two tries while the server is down.
    await waitUntil(async () => {
      const row = (await outbox()).find((m) => m.to_address === client.email);
      return row !== undefined && Number(row.attempts) >= 2 && row.status === 'pending';
    }, 5_000);
    const waiting = (await outbox()).find((m) => m.to_address === client.email)!;
    expect(waiting.last_error).toMatch(/ECONNREFUSED|connect/i);
    sink = await SmtpSink.start(smtpPort);
    const [mail] = await sink.waitFor(client.email, 1, 5_000);
    expect(mail!.replyTo).toBe('bo@visitor.test');
    await waitUntil(async () => (await outbox()).find((m) => m.id === waiting.id)?.status === 'sent', 2_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(sink.to(client.email)).toHaveLength(1);
  });

  it('sends the visitor a copy when the form asks, only to the address it gives, once a day', async () => {
    sink ??= await SmtpSink.start(smtpPort);
    const { project, client, host } = await site('Copy Bakery');
    await api.patch(`/api/v1/projects/${project.id}/site-settings`, {
      facts: { email: 'hello@copybakery.test' },
      forms: { contact: { visitor_copy: true } },
    });
    expect(await postForm(host, 'name=Cy&email=cy%40visitor.test&message=A+cake+for+Friday')).toBe(303);
    const [copy] = await sink.waitFor('cy@visitor.test');
    expect(copy!.subject).toBe('Your message to Copy Bakery');
    expect(copy!.replyTo).toBe('hello@copybakery.test');
    expect(copy!.text).toContain('message: A cake for Friday');
    await sink.waitFor(client.email);
    // A second message the same day from the same address: the owner hears, the address does not again.
    expect(await postForm(host, 'email=CY%40visitor.test&message=And+bread')).toBe(303);
    await sink.waitFor(client.email, 2);
    await new Promise((r) => setTimeout(r, 200));
    expect(sink.to('cy@visitor.test')).toHaveLength(1);
    // No address in the message: no copy to anyone.
    const before = sink.messages.length;
    expect(await postForm(host, 'message=No+address')).toBe(303);
    await sink.waitFor(client.email, 3);
    await new Promise((r) => setTimeout(r, 200));
    expect(sink.messages.length).toBe(before + 1);
  });

  it('with a daily digest, mails the day’s messages once, whoever looks and however often', async () => {
    sink ??= await SmtpSink.start(smtpPort);
    const { project, client, host } = await site('Digest Deli');
    await api.patch(`/api/v1/projects/${project.id}/site-settings`, { form_digest: true });
    expect(await postForm(host, 'email=di%40visitor.test&message=First')).toBe(303);
    expect(await postForm(host, 'name=Ed&message=Second')).toBe(303);
    await new Promise((r) => setTimeout(r, 300));
    expect(sink.to(client.email)).toHaveLength(0);
    // The next day: two instances look at once, and again later.
    const tomorrow = Date.now() + 86_400_000;
    const counts = await Promise.all([
      queueDigests(api.ctx.database, 'https://app.agency.test', tomorrow),
      queueDigests(api.ctx.database, 'https://app.agency.test', tomorrow),
    ]);
    expect(counts[0]! + counts[1]!).toBe(1);
    expect(await queueDigests(api.ctx.database, 'https://app.agency.test', tomorrow + 3_600_000)).toBe(0);
    sender.wake();
    const [digest] = await sink.waitFor(client.email);
    const day = new Date().toISOString().slice(0, 10);
    expect(digest!.subject).toBe(`2 form messages on Digest Deli, ${day}`);
    expect(digest!.text).toContain('message: First');
    expect(digest!.text).toContain('Reply to: di@visitor.test');
    expect(digest!.text).toContain('name: Ed');
    await new Promise((r) => setTimeout(r, 300));
    expect(sink.to(client.email)).toHaveLength(1);
  });
});
