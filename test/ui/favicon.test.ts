// The app's icon: every page names it, and /favicon.ico answers (it was a 404 on every page).
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';

const api = useTestApi();

describe('the favicon', () => {
  it('is linked from the pages and served, also at /favicon.ico', async () => {
    const page = await api.app.inject({ method: 'GET', url: '/setup' });
    const href = /<link rel="icon" href="([^"]+)" type="image\/svg\+xml">/.exec(page.body)![1]!;
    const icon = await api.app.inject({ method: 'GET', url: href });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    const ico = await api.app.inject({ method: 'GET', url: '/favicon.ico' });
    expect(ico.statusCode).toBe(200);
    expect(ico.body).toBe(icon.body);
  });
});
