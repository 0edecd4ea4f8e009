// One wording for a refused value on every way in: the REST API's 400, an MCP tool's refusal and a
// page's form error say the same thing for the same body.
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { CreateClientBody } from '../../src/modules/clients/schema.ts';
import { checked } from '../../src/mcp/check.ts';
import { validForm } from '../../src/ui/forms.ts';

const api = useTestApi();

const refusal = (check: () => unknown) => {
  try {
    check();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('not refused');
};

describe('the validation message', () => {
  it.each([
    [{ email: 'not an email' }, "field 'email' must be a valid email"],
    [{}, "field 'email' is required"],
    [{ email: 'a@example.com', colour: 'red' }, "unknown field 'colour'"],
    [{ email: 'a@example.com', name: 5 }, "field 'name' must be string or null"],
  ])('is the same through the API, MCP and the pages for %j', async (body, message) => {
    const res = await api.post('/api/v1/clients', body);
    expect(res).toMatchObject({ status: 400, body: { error: message } });
    expect(refusal(() => checked(CreateClientBody, body))).toBe(message);
    expect(refusal(() => validForm(CreateClientBody, body))).toBe(message);
  });

  it('names a page field as the form labels it', () => {
    expect(refusal(() => validForm(CreateClientBody, { email: 'a@example.com', plan_id: 'x' }))).toBe(
      "field 'plan id' must be a valid uuid",
    );
  });
});
