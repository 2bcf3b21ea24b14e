import { expect } from 'vitest';
import type { TestApp } from './app.js';

export interface Target {
  method: 'POST' | 'PATCH' | 'PUT';
  url: string;
  key: string;
}

/** Asserts an error body of the one shape, and returns its message for further checks. */
export function expectError(res: { statusCode: number; json: () => unknown }, status: number, mentions?: string | RegExp): string {
  const body = res.json() as { statusCode: number; message: string; error: string };
  expect(res.statusCode, JSON.stringify(body)).toBe(status);
  expect(body.statusCode).toBe(status);
  expect(typeof body.error).toBe('string');
  expect(typeof body.message).toBe('string');
  if (mentions !== undefined) expect(body.message).toMatch(mentions);
  return body.message;
}

/** The three ways a body cannot be read at all: each is a 400, never a 422 or a 5xx. */
export async function expectUnreadableBodies(t: TestApp, target: Target): Promise<void> {
  const malformed = await t.request({ ...target, body: '{"name": "x",', headers: { 'content-type': 'application/json' } });
  expectError(malformed, 400);
  const wrongType = await t.request({ ...target, body: 'name=x', headers: { 'content-type': 'text/plain' } });
  expectError(wrongType, 400);
  for (const notObject of [[{ name: 'x' }], 'just a string', 42, null]) {
    const res = await t.request({ ...target, body: JSON.stringify(notObject), headers: { 'content-type': 'application/json' } });
    expectError(res, 400);
  }
}

/** Sends one body that must be refused with 422 naming `field`. */
export async function expect422(t: TestApp, target: Target, body: unknown, field: string): Promise<void> {
  const res = await t.request({ ...target, body });
  expectError(res, 422, field);
}
