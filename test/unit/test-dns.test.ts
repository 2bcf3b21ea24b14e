import { Resolver } from 'node:dns/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDns, startNodeDns } from '../helpers/dns-server.js';

/** The in-process DNS server the domain tests use where pebble-challtestsrv is not installed. */
describe('the tests’ in-process DNS server', () => {
  let dns: TestDns;
  let resolver: Resolver;
  beforeAll(async () => {
    dns = await startNodeDns();
    resolver = new Resolver({ timeout: 2000, tries: 1 });
    resolver.setServers([dns.server]);
  });
  afterAll(async () => {
    await dns?.stop();
  });

  it('answers the TXT values set, case-insensitively, and no record (NOERROR, no answer) once cleared', async () => {
    await expect(resolver.resolveTxt('_pps-challenge.homes.example.com')).rejects.toMatchObject({ code: 'ENODATA' });
    await dns.setTxt('_pps-challenge.homes.example.com', 'first');
    await dns.setTxt('_pps-challenge.homes.example.com.', 'second');
    expect((await resolver.resolveTxt('_PPS-challenge.Homes.example.com')).map((chunks) => chunks.join(''))).toEqual(['first', 'second']);
    await dns.clearTxt('_pps-challenge.homes.example.com');
    await expect(resolver.resolveTxt('_pps-challenge.homes.example.com')).rejects.toMatchObject({ code: 'ENODATA' });
  });
});
