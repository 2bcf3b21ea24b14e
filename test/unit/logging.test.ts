import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { redactingLoggerOptions } from '../../src/http/logging.js';

const KEY = 'epk_0123456789abcdefABCDEF_-xyz';
const TOKEN = 'operator-token-that-is-long-enough';

function logger() {
  let out = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      out += chunk.toString();
      done();
    },
  });
  const log = pino(redactingLoggerOptions({ adminToken: TOKEN }, { level: 'trace' }) as pino.LoggerOptions, stream);
  return { log, text: () => out };
}

describe('redactingLoggerOptions', () => {
  it('redacts credentials at any depth, in messages, errors and child loggers, at every level', () => {
    const { log, text } = logger();
    const headers = { authorization: `Bearer ${KEY}`, cookie: `s=${KEY}`, 'content-type': 'multipart/form-data' };
    log.trace({ busboyOptions: { headers, limits: { files: 2 } } }, 'Providing options to busboy');
    log.child({ reqId: 'r1' }).debug({ nested: [{ deeper: { 'Proxy-Authorization': 'Basic abc' } }] }, `token ${TOKEN} and key ${KEY}`);
    log.error(new Error(`upstream said Bearer ${KEY}`));
    log.warn({ err: Object.assign(new Error('boom'), { headers }) }, 'with fields');
    const out = text();
    expect(out).not.toContain(KEY);
    expect(out).not.toContain(TOKEN);
    expect(out).not.toContain('Basic abc');
    // What is not a credential is kept, and the caller's objects are not changed.
    expect(out).toContain('multipart/form-data');
    expect(out).toContain('Providing options to busboy');
    expect(out).toContain('"files":2');
    expect(headers.authorization).toBe(`Bearer ${KEY}`);
  });
});
