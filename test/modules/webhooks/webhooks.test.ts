import { describe, expect, it } from 'vitest';
import { useTestApi } from '../../helpers/app.ts';

const api = useTestApi();

describe('webhook endpoints', () => {
  it('registers an endpoint, shows the secret once, collapses duplicate events', async () => {
    const res = await api.post('/api/v1/webhooks', {
      url: 'https://hooks.example.com/in',
      events: ['client.created', 'client.created', 'project.created'],
    });
    expect(res.status).toBe(201);
    expect(res.body.webhook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(res.body.webhook.events).toEqual(['client.created', 'project.created']);
    expect(res.body.webhook.is_active).toBe(true);
    const got = await api.get(`/api/v1/webhooks/${res.body.webhook.id}`);
    expect(got.body.webhook).not.toHaveProperty('secret');
    const list = await api.get('/api/v1/webhooks');
    expect(list.body.webhooks).toHaveLength(1);
    expect(list.body.webhooks[0]).not.toHaveProperty('secret');
  });

  it.each([
    ['http://hooks.example.com/in', "'url' must be an https URL"],
    ['https://127.0.0.1/in', 'private'],
    ['https://[::ffff:10.0.0.1]/in', 'private'],
    ['https://169.254.169.254/latest', 'private'],
    ['https://localhost/in', 'local host'],
    ['not a url', "'url'"],
  ])('refuses %s', async (url, message) => {
    const res = await api.post('/api/v1/webhooks', { url, events: ['client.created'] });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(message);
  });

  it('refuses unknown and empty event lists', async () => {
    const unknown = await api.post('/api/v1/webhooks', {
      url: 'https://h.example.com',
      events: ['client.deleted'],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toContain('events[0]');
    const empty = await api.post('/api/v1/webhooks', { url: 'https://h.example.com', events: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toContain('events');
  });

  it('updates only the fields present and deletes', async () => {
    const { body } = await api.post('/api/v1/webhooks', {
      url: 'https://h.example.com/a',
      events: ['client.created'],
    });
    const id = body.webhook.id;
    const off = await api.patch(`/api/v1/webhooks/${id}`, { is_active: false });
    expect(off.body.webhook).toMatchObject({
      is_active: false,
      url: 'https://h.example.com/a',
      events: ['client.created'],
    });
    const del = await api.delete(`/api/v1/webhooks/${id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ deleted: true, id });
    expect((await api.get(`/api/v1/webhooks/${id}`)).status).toBe(404);
    expect((await api.delete(`/api/v1/webhooks/${id}`)).status).toBe(404);
  });

  it("never shows or changes another organization's endpoint", async () => {
    const other = await api.newOrg('Other');
    const { body } = await api.post(
      '/api/v1/webhooks',
      { url: 'https://h.example.com/o', events: ['client.created'] },
      { key: other.key },
    );
    const id = body.webhook.id;
    expect((await api.get(`/api/v1/webhooks/${id}`)).status).toBe(404);
    expect((await api.patch(`/api/v1/webhooks/${id}`, { is_active: false })).status).toBe(404);
    expect((await api.delete(`/api/v1/webhooks/${id}`)).status).toBe(404);
    expect((await api.get('/api/v1/webhooks')).body.webhooks).toEqual([]);
  });
});
