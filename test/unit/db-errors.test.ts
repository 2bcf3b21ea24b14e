import { describe, expect, it } from 'vitest';
import { mapDatabaseError } from '../../src/db/errors.js';

const pgError = (code: string) => Object.assign(new Error(`server said ${code}`), { code });

describe('mapDatabaseError: resource and connection faults', () => {
  it.each([
    ['53200', /^The database is out of memory; retry later$/, 5],
    ['53300', /^The database has no free connection; retry later$/, 2],
    ['53400', /^The database is out of resources; retry later$/, 5], // configuration_limit_exceeded
    ['57P01', /^The database is unavailable; retry later$/, 5], // admin_shutdown
    ['57P02', /^The database is unavailable; retry later$/, 5], // crash_shutdown
    ['57P03', /^The database is unavailable; retry later$/, 5], // cannot_connect_now
    ['57P04', /^The database is unavailable; retry later$/, 5], // database_dropped
    ['57P05', /^The database is unavailable; retry later$/, 5], // idle_session_timeout
    ['08000', /^The database is unavailable/, 5],
    ['08001', /^The database is unavailable/, 5], // sqlclient_unable_to_establish_sqlconnection
    ['08003', /^The database is unavailable/, 5],
    ['08004', /^The database is unavailable/, 5], // sqlserver_rejected_establishment_of_sqlconnection
    ['08006', /^The database is unavailable/, 5],
    ['08007', /^The database is unavailable/, 5],
    ['08P01', /^The database is unavailable/, 5], // protocol_violation
  ])('%s is a 503 naming the database, with a Retry-After', (code, message, retryAfter) => {
    const mapped = mapDatabaseError(pgError(code));
    expect(mapped?.statusCode).toBe(503);
    expect(mapped?.message).toMatch(message);
    expect(mapped?.dependency).toBe('database');
    expect(mapped?.retryAfterSeconds ?? 5).toBe(retryAfter);
    expect((mapped?.cause as { code?: string }).code).toBe(code);
  });

  it.each(['53100', 'ENOSPC'])('%s (disk full) is a 507 naming the database', (code) => {
    const mapped = mapDatabaseError(pgError(code));
    expect(mapped?.statusCode).toBe(507);
    expect(mapped?.message).toBe('The database is out of space; nothing was written');
    expect(mapped?.dependency).toBe('database');
  });

  it.each(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE'])('a pg connection fault %s is a 503 naming the database', (code) => {
    expect(mapDatabaseError(pgError(code))).toMatchObject({ statusCode: 503, dependency: 'database' });
  });

  it('a lost or unobtainable pool connection is a 503', () => {
    expect(mapDatabaseError(new Error('Connection terminated unexpectedly'))?.statusCode).toBe(503);
    expect(mapDatabaseError(new Error('timeout exceeded when trying to connect'))?.statusCode).toBe(503);
  });

  it('leaves other classes alone: constraint codes keep their mapping, unknown ones are faults', () => {
    expect(mapDatabaseError(pgError('23505'))?.statusCode).toBe(409);
    expect(mapDatabaseError(pgError('42P01'))).toBeUndefined(); // undefined_table: a bug, a 500
    expect(mapDatabaseError(pgError('57014'))).toBeUndefined(); // query_canceled: not class 57P0x
    expect(mapDatabaseError(new Error('something else'))).toBeUndefined();
  });
});
