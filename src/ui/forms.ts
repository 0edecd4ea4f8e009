// Form posts into the same typed bodies the REST API takes, checked against the same schemas
// (modules/*/schema.ts), so a rule is written once. Form fields are text: an empty optional field
// means "not given" (or null where the schema allows it), numbers and checkboxes are converted here.
import { hasNul } from '../web/nul-check.ts';
import type { TSchema, Static } from '@sinclair/typebox';
import { invalid } from '../modules/common/errors.ts';
import { checkedAgainst } from '../web/validation-message.ts';

export type Form = Record<string, string | string[] | undefined>;

/**
 * Checks a body built from a form against a module schema (as sent, like a REST body); a failure
 * is an InvalidInputError in the API's wording, naming the field as the form labels it.
 */
export function validForm<T extends TSchema>(schema: T, body: Record<string, unknown>): Static<T> {
  return checkedAgainst(schema, body, 'field', {
    whole: 'the form',
    label: (name) => name.replace(/_/g, ' '),
  });
}

export function text(form: Form, name: string): string {
  const value = form[name];
  const one = Array.isArray(value) ? value[0] : value;
  if (one !== undefined && hasNul(one))
    throw invalid(`${name.replace(/_/g, ' ')}: must not contain a NUL character`);
  return one ?? '';
}

/** Trimmed text, or undefined when blank (an optional field left empty). */
export function optional(form: Form, name: string): string | undefined {
  const value = text(form, name).trim();
  return value === '' ? undefined : value;
}

/** Trimmed text, or null when blank (a nullable field cleared). */
export function nullable(form: Form, name: string): string | null {
  return optional(form, name) ?? null;
}

export function checkbox(form: Form, name: string): boolean {
  return form[name] !== undefined;
}

export function number(form: Form, name: string): number | undefined {
  const value = optional(form, name);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw invalid(`${name.replace(/_/g, ' ')}: must be a number`);
  return n;
}

export function list(form: Form, name: string): string[] {
  const value = form[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}
