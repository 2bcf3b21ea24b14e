import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { getPublicSuffix } from 'tldts';

/** Why a hostname is refused; each kind is named in the 422's message. */
export type HostnameRefusal = 'not-a-hostname' | 'single-label' | 'ip-address' | 'public-suffix' | 'own-host' | 'too-long';

const REASONS: Record<HostnameRefusal, string> = {
  'not-a-hostname': 'is not a hostname (letters, digits and hyphens in dot-separated labels of at most 63 characters)',
  'single-label': 'needs two labels or more (homes.example.com, not homes)',
  'ip-address': 'is an IP address; connect a hostname',
  'public-suffix': 'is a public suffix alone (Public Suffix List); connect a name under it',
  'own-host': "is the service's own host",
  'too-long': 'is longer than 253 characters',
};

export const MAX_HOSTNAME = 253;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export type HostnameCheck = { hostname: string } | { refused: HostnameRefusal; message: string };

/** The message of a refusal: `Validation failed: hostname "x" is …`. */
export const refusalMessage = (given: string, kind: HostnameRefusal) =>
  `Validation failed: hostname ${JSON.stringify(given.length > 300 ? `${given.slice(0, 300)}…` : given)} ${REASONS[kind]} (${kind})`;

/** An IP literal in any form a browser reads as one: 1.2.3.4, [::1], ::1, 127.1 (WHATWG URL reads it as 127.0.0.1). */
function ipLiteral(raw: string, ascii: string): boolean {
  const bare = raw.replace(/^\[(.*)\]$/, '$1');
  return isIP(bare) !== 0 || isIP(ascii) !== 0 || (/^[0-9a-f:.]+$/i.test(raw) && raw.includes(':'));
}

/**
 * A hostname as stored: lower-case ASCII (an IDN converted to punycode by WHATWG's domainToASCII), one
 * trailing dot dropped; refused when it is an IP literal, a single label, a public suffix alone (the
 * Public Suffix List with its private section, through tldts: `github.io` is refused, `me.github.io`
 * allowed), the service's own host (`ownHost`, PUBLIC_URL's hostname) or longer than 253 characters.
 */
export function checkHostname(input: string, ownHost: string): HostnameCheck {
  const given = input.trim();
  const refuse = (kind: HostnameRefusal): HostnameCheck => ({ refused: kind, message: refusalMessage(given, kind) });
  if (given.length > 1000) return refuse('too-long');
  const raw = given.replace(/\.$/, '');
  if (raw === '') return refuse('not-a-hostname');
  const ascii = /[\s/?#@\\]/.test(raw) ? '' : domainToASCII(raw).toLowerCase();
  if (ipLiteral(raw, ascii)) return refuse('ip-address');
  if (ascii === '') return refuse('not-a-hostname');
  if (ascii.length > MAX_HOSTNAME) return refuse('too-long');
  const labels = ascii.split('.');
  if (!labels.every((label) => LABEL.test(label))) return refuse('not-a-hostname');
  if (labels.length < 2) return refuse('single-label');
  if (ascii === ownHost.toLowerCase()) return refuse('own-host');
  if (getPublicSuffix(ascii, { allowPrivateDomains: true }) === ascii) return refuse('public-suffix');
  return { hostname: ascii };
}

/** A path or Host value as a stored hostname would read (lower case, IDN as punycode), or '' when it cannot be one. */
export function hostnameKey(value: string): string {
  const raw = value.trim().replace(/\.$/, '');
  if (raw === '' || raw.length > 1000 || /[\s/?#@\\]/.test(raw)) return '';
  return domainToASCII(raw).toLowerCase();
}
