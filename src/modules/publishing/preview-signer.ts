// Preview links: a signed, expiring address of a project's current (unpublished) files that
// anyone holding it can open. The signing secret is PREVIEW_SECRET or, when unset, one generated
// once and kept in the database, so that every instance accepts the links of the others.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database } from '../../db/index.ts';
import { serviceSecret } from './repo.ts';

const SECRET_NAME = 'preview_signing';

export class PreviewSigner {
  private secret: Promise<string> | undefined;

  constructor(
    private readonly database: Database,
    private readonly configured: string | undefined,
  ) {}

  private key(): Promise<string> {
    // A random secret created by whichever instance asks first; the others read the same one.
    this.secret ??= this.configured
      ? Promise.resolve(this.configured)
      : serviceSecret(this.database.db, SECRET_NAME, randomBytes(32).toString('base64url'));
    return this.secret;
  }

  async sign(projectId: string, expiresAt: number): Promise<string> {
    return createHmac('sha256', await this.key())
      .update(`${projectId}.${expiresAt}`)
      .digest('base64url')
      .slice(0, 32);
  }

  /** True when `signature` is this service's for the project and the link has not expired. */
  async verify(projectId: string, expiresAt: number, signature: string, now = Date.now()): Promise<boolean> {
    if (!Number.isSafeInteger(expiresAt) || expiresAt <= Math.floor(now / 1000)) return false;
    const expected = Buffer.from(await this.sign(projectId, expiresAt));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
