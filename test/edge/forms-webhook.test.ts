// A contact form on a published site reaches the agency's webhook as a signed form.submitted
// event, even when the endpoint is down at the moment of the post: the outbox holds it.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { createClient, createProject } from '../helpers/fixtures.ts';
import { Receiver, verify } from '../helpers/receiver.ts';
import { postForm as postSiteForm } from '../helpers/site-client.ts';

const api = useTestApi(
  {
    SITES_DOMAIN: 'sites.test',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_SCHEDULE: '0ms,100ms,100ms,100ms',
    WEBHOOK_POLL_INTERVAL: '20ms',
  },
  { dispatcher: true },
);
let receiver: Receiver;
let port: number;
beforeAll(async () => {
  receiver = await Receiver.start();
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  port = (api.app.server.address() as AddressInfo).port;
});
afterAll(() => receiver.close());

const postForm = (host: string, body: string) => postSiteForm(port, host, body);

it('delivers form.submitted with the project id, form name and fields once the endpoint is back', async () => {
  const hook = (
    await api.post('/api/v1/webhooks', { url: receiver.url('/forms'), events: ['form.submitted'] })
  ).body.webhook;
  // Down for the first two attempts, then up.
  receiver.on('/forms', (_r, nth) => (nth <= 2 ? { status: 503 } : { status: 200 }));
  const client = await createClient(api);
  const project = await createProject(api, { client_email: client.email, name: 'Bakery' });
  await api.post(`/api/v1/projects/${project.id}/publish`, {
    builtFiles: { 'index.html': '<form action="/_forms/contact" method="post"></form>' },
  });

  expect(
    await postForm(`${project.subdomain}.sites.test`, 'name=Ann&message=Two+loaves%2C+please&_gotcha='),
  ).toBe(303);
  const attempts = await receiver.waitFor('/forms', 3);
  const last = attempts[2]!;
  expect(new Set(attempts.map((a) => a.headers['webhook-id'])).size).toBe(1);
  const { standard } = verify(hook.secret, last);
  expect(standard.type).toBe('form.submitted');
  const [submission] = (await api.get(`/api/v1/projects/${project.id}/submissions`)).body.submissions;
  expect(standard.data).toEqual({ submission });
  expect(submission).toMatchObject({
    project_id: project.id,
    form: 'contact',
    fields: { name: 'Ann', message: 'Two loaves, please' },
  });
});
