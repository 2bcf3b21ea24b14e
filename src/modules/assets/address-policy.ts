import ipaddr from 'ipaddr.js';

// Cloud metadata endpoints stay refused even when private addresses are allowed (local testing).
export const ALWAYS_DENIED = ['169.254.169.254', 'fd00:ec2::254'];

type Address = ipaddr.IPv4 | ipaddr.IPv6;

const v4 = (b: number[]) => new ipaddr.IPv4(b as [number, number, number, number]);

/**
 * The IPv4 addresses an IPv6 address carries and a translator or tunnel would deliver to: mapped
 * (::ffff:0:0/96), SIIT (::ffff:0:0:0/96), IPv4-compatible (::/96, deprecated but still accepted
 * by some stacks), NAT64 (64:ff9b::/96 and the local-use 64:ff9b:1::/48 of RFC 8215, laid out as
 * RFC 6052 places a /96 and a /48 prefix), 6to4 (2002::/16) and Teredo (2001::/32: the server, and
 * the client stored inverted). ipaddr.js names these ranges; where the IPv4 sits is RFC knowledge.
 */
export function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4[] {
  const b = address.toByteArray();
  const words = address.parts;
  switch (address.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return [v4(b.slice(12, 16))];
    case 'rfc6052':
      // 64:ff9b::/96 keeps the IPv4 in the last 32 bits; the /48 local-use prefix splits it around the u octet.
      return words[2] === 0 ? [v4(b.slice(12, 16))] : [v4([b[6]!, b[7]!, b[9]!, b[10]!])];
    case '6to4':
      return [v4(b.slice(2, 6))];
    case 'teredo':
      return [v4(b.slice(4, 8)), v4(b.slice(12, 16).map((x) => x ^ 0xff))];
    default:
      // ::/96 other than :: and ::1, which ipaddr.js calls unspecified and loopback.
      if (words.slice(0, 6).every((w) => w === 0) && address.range() === 'unicast') return [v4(b.slice(12, 16))];
      return [];
  }
}

const describeRange = (range: string) => (range === 'ipv4Mapped' ? 'IPv4-mapped' : range);

/**
 * Why the fetcher must not connect to address, or undefined when it may. One policy for a literal
 * host in a URL and for every address a name resolves to:
 * - metadata and unspecified addresses are refused always, also when an IPv6 form embeds them;
 * - without allowPrivate, anything but a public unicast address is refused, and so is an
 *   IPv4-embedding IPv6 form (including the ::/96 form ipaddr.js counts as unicast) whose IPv4 is refused.
 */
export function addressRefusal(host: string, allowPrivate: boolean): string | undefined {
  if (!ipaddr.isValid(host)) return undefined;
  const addr: Address = ipaddr.parse(host);
  const embedded = addr.kind() === 'ipv6' ? embeddedIPv4(addr as ipaddr.IPv6) : [];
  for (const candidate of [addr, ...embedded]) {
    const via = candidate === addr ? '' : ` (embedding ${candidate.toString()})`;
    if (ALWAYS_DENIED.includes(candidate.toString())) return `a cloud metadata address (${host})${via}, which is not allowed`;
    if (candidate.range() === 'unspecified') return `an unspecified address (${host})${via}, which is not allowed`;
  }
  if (allowPrivate) return undefined;
  for (const inner of embedded) {
    if (inner.range() !== 'unicast') return `a ${inner.range()} address (${host} embeds ${inner.toString()}); only public addresses are allowed`;
  }
  if (embedded.length > 0 && addr.range() === 'unicast') return `an IPv4-compatible address (${host}); only public addresses are allowed`;
  const range = addr.range();
  if (range !== 'unicast') return `a ${describeRange(range)} address (${host}); only public addresses are allowed`;
  return undefined;
}
