import { describe, expect, it } from 'vitest';
import { checkHostname, hostnameKey } from './hostname.js';
import { hostOf } from './site.js';

const OWN = 'pages.publisher.example';
const refusal = (input: string) => {
  const checked = checkHostname(input, OWN);
  return 'refused' in checked ? checked.refused : checked.hostname;
};

describe('checkHostname', () => {
  it('stores lower-case ASCII: IDNs as punycode, one trailing dot and surrounding spaces dropped', () => {
    expect(refusal(' Homes.Agency.Example. ')).toBe('homes.agency.example');
    expect(refusal('bücher.example')).toBe('xn--bcher-kva.example');
    expect(refusal('XN--BCHER-KVA.example')).toBe('xn--bcher-kva.example');
    expect(refusal('lindenpark-homes.de')).toBe('lindenpark-homes.de');
    expect(refusal('me.github.io')).toBe('me.github.io');
    expect(refusal('a.b.c.d.example.co.uk')).toBe('a.b.c.d.example.co.uk');
  });

  it('names each refusal', () => {
    expect(refusal('10.0.0.1')).toBe('ip-address');
    expect(refusal('0x7f.1')).toBe('ip-address');
    expect(refusal('[::1]')).toBe('ip-address');
    expect(refusal('fe80::1')).toBe('ip-address');
    expect(refusal('de')).toBe('single-label');
    expect(refusal('co.uk')).toBe('public-suffix');
    expect(refusal('CO.UK.')).toBe('public-suffix');
    expect(refusal('s3.amazonaws.com')).toBe('public-suffix');
    expect(refusal('PAGES.publisher.example')).toBe('own-host');
    expect(refusal(`${'a.'.repeat(126)}example`)).toBe('too-long');
    expect(refusal('x'.repeat(1001))).toBe('too-long');
    for (const bad of [
      '',
      '.',
      'a..b.example',
      'a.-b.example',
      'a_b.example',
      'a b.example',
      'a/b.example',
      'user@host.example',
      'host.example:443',
      '*.example.com',
    ]) {
      expect(refusal(bad), bad).toBe('not-a-hostname');
    }
  });

  it('says the refusal in the message with the hostname as given', () => {
    const checked = checkHostname('co.uk', OWN);
    expect('refused' in checked && checked.message).toBe(
      'Validation failed: hostname "co.uk" is a public suffix alone (Public Suffix List); connect a name under it (public-suffix)',
    );
  });
});

describe('hostnameKey and hostOf', () => {
  it('read a path or Host value as a stored hostname would be', () => {
    expect(hostnameKey('Bücher.Example.')).toBe('xn--bcher-kva.example');
    expect(hostnameKey('a/b')).toBe('');
    expect(hostOf('Homes.Example.:8443')).toBe('homes.example');
    expect(hostOf('[::1]:3000')).toBe('::1');
    expect(hostOf('localhost')).toBe('localhost');
    expect(hostOf(undefined)).toBe('');
  });
});
