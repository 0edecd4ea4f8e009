// Sealing organizations' secrets: what is sealed opens only with the same key and for the same
// record; the embedded default makes its key file once, readable by its owner alone.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createContainer } from '../../src/container.ts';
import { parseSecretsKey, SecretBox } from '../../src/lib/secrets.ts';

describe('SecretBox', () => {
  it('opens what it sealed, for the same record only, and nothing tampered with', () => {
    const box = new SecretBox(Buffer.alloc(32, 1));
    const sealed = box.seal('sk-live-ünïcode', 'ai_models:a');
    expect(sealed).not.toContain('sk-live');
    expect(box.seal('sk-live-ünïcode', 'ai_models:a')).not.toBe(sealed);
    expect(box.open(sealed, 'ai_models:a')).toBe('sk-live-ünïcode');
    expect(box.open(sealed, 'ai_models:b')).toBeUndefined();
    expect(new SecretBox(Buffer.alloc(32, 2)).open(sealed, 'ai_models:a')).toBeUndefined();
    const [v, iv, body] = sealed.split('.');
    // One bit of each byte flipped in turn (the text changed before: a character replaced by
    // itself, 1 time in 64, left the seal whole and the test failing).
    const bytes = Buffer.from(body!, 'base64url');
    for (let i = 0; i < bytes.length; i++) {
      const tampered = Buffer.from(bytes);
      tampered[i]! ^= 1;
      expect(box.open(`${v}.${iv}.${tampered.toString('base64url')}`, 'ai_models:a')).toBeUndefined();
    }
    expect(box.open('garbage', 'ai_models:a')).toBeUndefined();
  });

  it('reads keys as base64 or hex of 32 bytes', () => {
    expect(parseSecretsKey(Buffer.alloc(32, 3).toString('base64url'))).toEqual(Buffer.alloc(32, 3));
    expect(parseSecretsKey(` ${Buffer.alloc(32, 3).toString('hex')}\n`)).toEqual(Buffer.alloc(32, 3));
    expect(parseSecretsKey(Buffer.alloc(31).toString('base64'))).toBeUndefined();
  });

  it.runIf(!process.env.TEST_DATABASE_URL)(
    'the embedded default keeps its key in DATA_DIR/secrets.key, mode 0600, made once',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'sitewright-secrets-'));
      try {
        const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' });
        const first = await createContainer(config, { rateLimitKeyPrefix: `sw:test:${process.pid}:secrets` });
        await first.close();
        const file = join(dir, 'secrets.key');
        expect(statSync(file).mode & 0o777).toBe(0o600);
        const key = readFileSync(file, 'utf8');
        expect(parseSecretsKey(key)).toHaveLength(32);
        const second = await createContainer(config, {
          rateLimitKeyPrefix: `sw:test:${process.pid}:secrets`,
        });
        await second.close();
        expect(readFileSync(file, 'utf8')).toBe(key);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
