// A signed-in person on the pages, through app.inject: an account with a role in an organization,
// a real session (AccountsService.openSession), a cookie jar, and form posts that carry the CSRF
// token the pages hand out, as a browser would send them.
import type { FastifyInstance } from 'fastify';
import type { Container } from '../../src/container.ts';
import type { Role } from '../../src/modules/accounts/roles.ts';

export interface Page {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  location: string | undefined;
}

let counter = 0;

export class PageSession {
  private readonly jar = new Map<string, string>();
  private csrf: string | undefined;

  private constructor(
    private readonly app: FastifyInstance,
    readonly user: { id: string; email: string },
  ) {}

  /** A new account that is a `role` of `orgId`, signed in to it. */
  static async signIn(
    app: FastifyInstance,
    ctx: Container,
    orgId: string,
    role: Role,
    email = `${role}-${process.pid}-${++counter}@example.com`,
  ): Promise<PageSession> {
    const user = await ctx.services.accounts.createMember({
      email,
      password: 'a long enough password',
      name: `${role[0]!.toUpperCase()}${role.slice(1)} ${counter}`,
      orgId,
      role,
    });
    const token = await ctx.services.accounts.openSession(user.id, orgId);
    const session = new PageSession(app, user);
    session.jar.set('sitewright_session', token);
    return session;
  }

  /** A visitor without an account yet: a cookie jar, and the CSRF token of the pages it saw. */
  static anonymous(app: FastifyInstance): PageSession {
    return new PageSession(app, { id: '', email: '' });
  }

  /** The portal account of an agency client (as if it had accepted its invitation), signed in. */
  static async signInClient(
    app: FastifyInstance,
    ctx: Container,
    orgId: string,
    clientId: string,
  ): Promise<PageSession> {
    const row = await ctx.database.db
      .selectFrom('clients')
      .select(['user_id', 'email'])
      .where('org_id', '=', orgId)
      .where('id', '=', clientId)
      .executeTakeFirstOrThrow();
    const user = await ctx.services.accounts.createUser({
      id: row.user_id,
      email: row.email,
      password: 'a long enough password',
      name: 'Client',
    });
    const token = await ctx.services.accounts.openSession(user.id, null);
    const session = new PageSession(app, user);
    session.jar.set('sitewright_session', token);
    return session;
  }

  /** What the builder's script sends: JSON with the CSRF token in a header, asking for JSON back. */
  async postJson(url: string, body: Record<string, unknown> = {}): Promise<Page & { json: any }> {
    if (!this.csrf) await this.get('/account');
    const res = await this.app.inject({
      method: 'POST',
      url,
      headers: {
        cookie: this.cookieHeader(),
        'content-type': 'application/json',
        accept: 'application/json',
        'x-csrf-token': this.csrf!,
      },
      payload: JSON.stringify(body),
    });
    this.keep(res.headers);
    let json: any;
    try {
      json = JSON.parse(res.body);
    } catch {
      json = undefined;
    }
    return {
      status: res.statusCode,
      headers: res.headers,
      body: res.body,
      location: res.headers.location as string | undefined,
      json,
    };
  }

  cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private keep(headers: Page['headers']): void {
    const set = headers['set-cookie'];
    for (const line of set === undefined ? [] : Array.isArray(set) ? set : [String(set)]) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }

  async get(url: string): Promise<Page> {
    const res = await this.app.inject({ method: 'GET', url, headers: { cookie: this.cookieHeader() } });
    this.keep(res.headers);
    const token = /name="_csrf" value="([^"]+)"/.exec(res.body)?.[1];
    if (token) this.csrf = token;
    return {
      status: res.statusCode,
      headers: res.headers,
      body: res.body,
      location: res.headers.location as string | undefined,
    };
  }

  /** Posts a form (urlencoded, repeated names for arrays) with the CSRF token of a page seen before. */
  async post(url: string, fields: Record<string, string | string[]> = {}): Promise<Page> {
    if (!this.csrf) await this.get('/account');
    const form = new URLSearchParams({ _csrf: this.csrf! });
    for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) form.append(k, one);
    const res = await this.app.inject({
      method: 'POST',
      url,
      headers: { cookie: this.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    });
    this.keep(res.headers);
    return {
      status: res.statusCode,
      headers: res.headers,
      body: res.body,
      location: res.headers.location as string | undefined,
    };
  }
}

/** The text of a page without tags, spaces collapsed: what a reader sees, for assertions. */
export function visibleText(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n)))
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/\s+/g, ' ')
    .trim();
}
