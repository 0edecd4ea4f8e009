import { describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';

const api = useTestApi();

describe('internal errors', () => {
  it('answers 500 with a generic message and no internals', async () => {
    await api.ctx.database.db.schema.dropTable('webhooks').execute();
    const res = await api.get('/api/v1/webhooks');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'Internal server error' });
    expect(res.text).not.toMatch(/webhooks|sql|table/i);
  });
});
