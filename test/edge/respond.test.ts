// The one place where the core's domain errors become the edge's status codes.
import { describe, expect, it } from 'vitest';
import { EdgeError, edgeErrorOf } from '../../src/edge/respond.ts';
import {
  InvalidInputError,
  NotFoundError,
  RateLimitedError,
  TooLargeError,
} from '../../src/modules/common/errors.ts';

describe('edgeErrorOf', () => {
  it('maps each domain refusal to its status, keeping the message', () => {
    const cases: [Error, number][] = [
      [new InvalidInputError('bad field'), 400],
      [NotFoundError.of('Site'), 404],
      [new TooLargeError('too big'), 413],
      [new RateLimitedError('slow down', 42), 429],
    ];
    for (const [error, status] of cases)
      expect(edgeErrorOf(error), error.message).toMatchObject({ status, message: error.message });
  });

  it('sends Retry-After with a 429, and hands an EdgeError through as it is', () => {
    expect(edgeErrorOf(new RateLimitedError('slow down', 42))!.headers).toEqual({ 'retry-after': '42' });
    const own = new EdgeError(415, 'wrong type');
    expect(edgeErrorOf(own)).toBe(own);
  });

  it('leaves faults alone: they are the 500s', () => {
    expect(edgeErrorOf(new TypeError('oops'))).toBeUndefined();
    expect(edgeErrorOf('text')).toBeUndefined();
  });
});
