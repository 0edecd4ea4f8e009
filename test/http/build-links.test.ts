// POST /api/v1/build-links: a link an agent can hand a person, checked like any write.
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { createTemplate } from '../helpers/fixtures.ts';
import { PageSession } from '../helpers/page-session.ts';

const api = useTestApi();

describe('POST /api/v1/build-links', () => {
  it('answers the organization’s build link for the prompt, with model and template', async () => {
    const template = await createTemplate(api, { is_public: true });
    const res = await api.post('/api/v1/build-links', {
      prompt: 'A bakery in Bristol & more',
      model: 'builtin',
      template_id: template.id,
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['url']);
    const url = new URL(res.body.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${api.ctx.config.publicUrl}/build`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      prompt: 'A bakery in Bristol & more',
      org: api.org.id,
      model: 'builtin',
      template: template.id,
    });
  });

  it('keeps a prompt too long for a URL on the server, and the link opens it', async () => {
    const prompt = `A yoga studio in Brighton. ${'Classes, teachers and a timetable. '.repeat(300)}`;
    const res = await api.post('/api/v1/build-links', { prompt });
    expect(res.status).toBe(201);
    const url = new URL(res.body.url);
    expect([...url.searchParams.keys()]).toEqual(['link']);
    const page = await PageSession.anonymous(api.app).get(`${url.pathname}${url.search}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('A yoga studio in Brighton.');
  });

  it('refuses what is wrong, as any write', async () => {
    const hidden = await createTemplate(api, { is_public: false });
    const other = await api.newOrg();
    const foreign = await createTemplate(api, { is_public: true }, other.key);
    expect((await api.post('/api/v1/build-links', { prompt: 'x' }, { key: null })).status).toBe(401);
    expect((await api.post('/api/v1/build-links', { prompt: 'x' }, { key: api.readKey })).status).toBe(403);
    expect(
      (await api.request('POST', '/api/v1/build-links', undefined, { payload: '{"prompt":"x"}' })).status,
    ).toBe(415);
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{}, 400, /prompt/],
      [{ prompt: '' }, 400, /prompt/],
      [{ prompt: 'x'.repeat(50_001) }, 400, /prompt/],
      [{ prompt: 'x', colour: 'red' }, 400, /colour/],
      [{ prompt: 'x', model: 'gpt-9' }, 400, /Unknown model 'gpt-9'/],
      [{ prompt: 'x', template_id: 'nope' }, 400, /template_id/],
      [{ prompt: 'x', template_id: hidden.id }, 404, /Template/],
      [{ prompt: 'x', template_id: foreign.id }, 404, /Template/],
      [{ prompt: 'a\u0000b' }, 400, /prompt/],
    ];
    for (const [body, status, message] of cases) {
      const res = await api.post('/api/v1/build-links', body);
      expect([JSON.stringify(body).slice(0, 60), res.status]).toEqual([
        JSON.stringify(body).slice(0, 60),
        status,
      ]);
      expect(res.body.error).toMatch(message);
    }
  });
});
