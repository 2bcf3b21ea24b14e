import { expect } from 'vitest';
import type { TestApp } from './app.js';

export const MISSING_ID = '01890000-0000-7000-8000-000000000000';

type Res = { statusCode: number; body: string; json: () => unknown };

/** Asserts the one error body shape and that the message mentions `mentions`. */
export function expectError(res: Res, status: number, mentions?: string | RegExp): string {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json() as { statusCode: number; message: string; error: string };
  expect(body.statusCode).toBe(status);
  expect(typeof body.error).toBe('string');
  if (mentions !== undefined) expect(body.message).toMatch(mentions);
  return body.message;
}

/** Sends a request with A's key and expects `status`; returns the parsed body. */
// biome-ignore lint/suspicious/noExplicitAny: response bodies are read loosely in assertions
export async function call<T = any>(t: TestApp, method: string, url: string, key: string | undefined, body?: unknown, status?: number): Promise<T> {
  const res = await t.request({ method: method as never, url, key, body });
  if (status !== undefined) expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
  return (res.body ? res.json() : undefined) as T;
}

/** Sibling orders must be exactly 0..n-1 in list order. */
export function expectContiguous(list: Array<{ order: number }>): void {
  expect(list.map((x) => x.order)).toEqual(list.map((_, i) => i));
}
