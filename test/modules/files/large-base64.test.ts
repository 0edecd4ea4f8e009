// Every file size up to FILE_MAX_BYTES is accepted as base64 (the content check once overflowed
// the regular expression engine's stack at about 3.2 MiB), and one byte more is a 413.
import { randomBytes, createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../../helpers/app.ts';
import { createClient, createProject } from '../../helpers/fixtures.ts';

const LIMIT = 5_242_880; // the default FILE_MAX_BYTES
const api = useTestApi({ FILE_MAX_BYTES: String(LIMIT), PROJECT_MAX_BYTES: String(4 * LIMIT) });

describe('large base64 files', () => {
  it('accepts a file of exactly FILE_MAX_BYTES (and 3,355,464 bytes), refuses one byte more', async () => {
    const client = await createClient(api);
    const p = await createProject(api, { client_email: client.email, name: 'Big files' });
    for (const size of [3_355_464, LIMIT]) {
      const bytes = randomBytes(size);
      const res = await api.put(`/api/v1/projects/${p.id}/files/blob-${size}.bin`, {
        content: bytes.toString('base64'),
        encoding: 'base64',
      });
      expect(res.status, `${size} bytes`).toBe(201);
      expect(res.body.file.size).toBe(size);
      const read = await api.get(`/api/v1/projects/${p.id}/files/blob-${size}.bin`);
      expect(createHash('sha256').update(Buffer.from(read.body.file.content, 'base64')).digest('hex')).toBe(
        createHash('sha256').update(bytes).digest('hex'),
      );
    }
    const over = await api.put(`/api/v1/projects/${p.id}/files/over.bin`, {
      content: randomBytes(LIMIT + 1).toString('base64'),
      encoding: 'base64',
    });
    expect(over.status).toBe(413);
    expect(over.body).toEqual({ error: expect.stringContaining('FILE_MAX_BYTES') });
  });

  it('still refuses malformed base64 with a 400, at any length', async () => {
    const client = await createClient(api);
    const p = await createProject(api, { client_email: client.email, name: 'Bad base64' });
    for (const content of ['abc', 'ab=c', '====', `${'A'.repeat(4_000_000)}*AAA`, 'QQ=A']) {
      const res = await api.put(`/api/v1/projects/${p.id}/files/bad.bin`, { content, encoding: 'base64' });
      expect(res.status, content.slice(0, 10)).toBe(400);
      expect(Object.keys(res.body)).toEqual(['error']);
    }
  });
});
