// GET and PATCH /api/v1/projects/{projectId}/site-settings: the shape, a PATCH changing only what
// it names (facts one by one), the checks with their messages, permissions and tenant isolation.
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { createClient, createProject, OTHER_UUID } from '../helpers/fixtures.ts';

const api = useTestApi();
const PNG_1x1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

async function project() {
  const client = await createClient(api);
  return createProject(api, { client_email: client.email, name: 'Settings site' });
}
const url = (id: string) => `/api/v1/projects/${id}/site-settings`;

describe('site settings', () => {
  it('answers every field null for a new project, and a PATCH changes only what it names', async () => {
    const p = await project();
    const empty = await api.get(url(p.id));
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({
      site_settings: {
        site_name: null,
        language: null,
        description: null,
        social_image: null,
        favicon: null,
        facts: { address: null, phone: null, email: null, opening_hours: null },
        form_notify: null,
        form_digest: false,
        forms: {},
        redirect_subdomain: false,
      },
    });
    const first = await api.patch(url(p.id), {
      site_name: '  Rosie’s Bakery ',
      language: 'PT-br',
      facts: { phone: '+44 117 496 0000', email: 'hello@rosies.example' },
      form_notify: ['client', 'Owner@Rosies.example', 'owner@rosies.example', 'members'],
    });
    expect(first.status).toBe(200);
    expect(first.body.site_settings).toMatchObject({
      site_name: 'Rosie’s Bakery',
      language: 'pt-BR',
      description: null,
      facts: { address: null, phone: '+44 117 496 0000', email: 'hello@rosies.example', opening_hours: null },
      form_notify: ['client', 'Owner@Rosies.example', 'members'],
    });
    // A second PATCH naming one fact keeps the other facts and fields.
    const second = await api.patch(url(p.id), {
      facts: { address: '1 Mill Lane, Bristol' },
      description: null,
    });
    expect(second.body.site_settings.facts).toEqual({
      address: '1 Mill Lane, Bristol',
      phone: '+44 117 496 0000',
      email: 'hello@rosies.example',
      opening_hours: null,
    });
    expect(second.body.site_settings.site_name).toBe('Rosie’s Bakery');
    expect((await api.get(url(p.id))).body).toEqual(second.body);
    // null clears a fact, a field, or every fact at once.
    const cleared = await api.patch(url(p.id), { facts: { phone: null }, site_name: null });
    expect(cleared.body.site_settings.facts.phone).toBeNull();
    expect(cleared.body.site_settings.site_name).toBeNull();
    expect(cleared.body.site_settings.facts.email).toBe('hello@rosies.example');
    const none = await api.patch(url(p.id), { facts: null, redirect_subdomain: true });
    expect(none.body.site_settings.facts).toEqual(empty.body.site_settings.facts);
    expect(none.body.site_settings.redirect_subdomain).toBe(true);
    // A blank fact is no fact.
    expect(
      (await api.patch(url(p.id), { facts: { address: '   ' } })).body.site_settings.facts.address,
    ).toBeNull();
  });

  it('takes the project’s own images and icons, and refuses what it cannot serve', async () => {
    const p = await project();
    const put = (path: string) =>
      api.put(`/api/v1/projects/${p.id}/files/${path}`, { content: PNG_1x1, encoding: 'base64' });
    expect((await put('img/share.png')).status).toBeLessThan(300);
    expect((await put('icon.png')).status).toBeLessThan(300);
    const ok = await api.patch(url(p.id), { social_image: '/img/share.png', favicon: './icon.png' });
    expect(ok.status).toBe(200);
    expect(ok.body.site_settings).toMatchObject({ social_image: 'img/share.png', favicon: 'icon.png' });
    const cases: [Record<string, unknown>, RegExp][] = [
      [
        { social_image: 'img/missing.png' },
        /field 'social_image': the project has no file 'img\/missing.png'/,
      ],
      [{ social_image: 'index.html' }, /field 'social_image': must be a PNG, JPEG, WebP or GIF file/],
      [{ favicon: '../icon.png' }, /field 'favicon': the path must not contain '.' or '..'/],
      [
        { favicon: '.sitewright/brief.json' },
        /field 'favicon': '.sitewright\/brief.json' is not a file the site serves/,
      ],
      [{ language: 'english please' }, /field 'language': 'english please' is not a language tag/],
      [
        { facts: { email: 'not-an-address' } },
        /field 'facts.email': 'not-an-address' is not an email address/,
      ],
      [
        { form_notify: ['client', 'everyone'] },
        /field 'form_notify\[1\]': 'everyone' is not an email address/,
      ],
      [{ form_notify: Array.from({ length: 11 }, (_, i) => `a${i}@x.example`) }, /form_notify/],
      [{ facts: { fax: '123' } }, /fax/],
      [{ colour: 'red' }, /colour/],
      [{ site_name: 'x'.repeat(101) }, /site_name/],
      [{ redirect_subdomain: null }, /redirect_subdomain/],
    ];
    for (const [body, message] of cases) {
      const res = await api.patch(url(p.id), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.body)).toEqual(['error']);
      expect(res.body.error).toMatch(message);
    }
    // Nothing a refused PATCH named was written.
    expect((await api.get(url(p.id))).body.site_settings).toMatchObject({
      social_image: 'img/share.png',
      favicon: 'icon.png',
      language: null,
      form_notify: null,
    });
  });

  it('needs read to see and write to change; another organization’s project is not found', async () => {
    const p = await project();
    expect((await api.get(url(p.id), { key: api.readKey })).status).toBe(200);
    expect((await api.patch(url(p.id), { site_name: 'X' }, { key: api.readKey })).status).toBe(403);
    expect((await api.get(url(p.id), { key: null })).status).toBe(401);
    const other = await api.newOrg('Other agency');
    expect((await api.get(url(p.id), { key: other.key })).status).toBe(404);
    const res = await api.patch(url(p.id), { site_name: 'Taken over' }, { key: other.key });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Project not found' });
    expect((await api.get(url(OTHER_UUID))).status).toBe(404);
    expect((await api.get(url('not-a-uuid'))).status).toBe(400);
    expect((await api.get(url(p.id))).body.site_settings.site_name).toBeNull();
  });

  it('takes rules of single forms, changing only the forms and fields named', async () => {
    const p = await project();
    const first = await api.patch(url(p.id), {
      form_digest: true,
      forms: {
        contact: { notify: ['members', 'Shop@Example.test'], visitor_copy: true },
        order: { visitor_copy: true },
      },
    });
    expect(first.status).toBe(200);
    expect(first.body.site_settings).toMatchObject({
      form_digest: true,
      forms: {
        contact: { notify: ['members', 'Shop@Example.test'], visitor_copy: true },
        order: { notify: null, visitor_copy: true },
      },
    });
    const second = await api.patch(url(p.id), { forms: { contact: { visitor_copy: false }, order: null } });
    expect(second.body.site_settings.forms).toEqual({
      contact: { notify: ['members', 'Shop@Example.test'], visitor_copy: false },
    });
    for (const [body, message] of [
      [{ forms: { 'no spaces': { visitor_copy: true } } }, /forms/],
      [
        { forms: { contact: { notify: ['nobody'] } } },
        /field 'forms.contact.notify\[0\]': 'nobody' is not an email address/,
      ],
      [{ forms: { contact: { cc: 'x' } } }, /cc/],
      [{ form_digest: 'yes' }, /form_digest/],
    ] as const) {
      const res = await api.patch(url(p.id), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(message);
    }
    expect((await api.get(url(p.id))).body.site_settings.forms).toEqual(second.body.site_settings.forms);
  });

  it('keeps both of two PATCHes sent at once', async () => {
    const p = await project();
    const [a, b] = await Promise.all([
      api.patch(url(p.id), { facts: { phone: '0117 496 0000' } }),
      api.patch(url(p.id), { facts: { email: 'a@b.example' } }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await api.get(url(p.id))).body.site_settings.facts).toMatchObject({
      phone: '0117 496 0000',
      email: 'a@b.example',
    });
  });
});
