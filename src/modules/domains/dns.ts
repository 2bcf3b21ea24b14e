import { Resolver } from 'node:dns/promises';

/** What a lookup of the TXT record found. */
export type TxtLookup = { kind: 'found'; values: string[] } | { kind: 'none'; reason: 'NXDOMAIN' | 'NODATA' } | { kind: 'failed'; code: string };

/**
 * TXT lookups through the resolvers of DNS_SERVERS (`host` or `host:port`, comma-separated; the system's
 * when unset), each lookup bounded by `timeoutMs` per try, two tries.
 */
export class TxtResolver {
  private readonly resolver: Resolver;

  constructor(servers: string[], timeoutMs: number) {
    this.resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
    if (servers.length > 0) this.resolver.setServers(servers);
  }

  async lookup(name: string): Promise<TxtLookup> {
    try {
      // A record split in 255-byte strings is one value.
      return { kind: 'found', values: (await this.resolver.resolveTxt(name)).map((chunks) => chunks.join('')) };
    } catch (err) {
      const code = (err as { code?: string }).code ?? 'EUNKNOWN';
      if (code === 'ENOTFOUND') return { kind: 'none', reason: 'NXDOMAIN' };
      if (code === 'ENODATA') return { kind: 'none', reason: 'NODATA' };
      return { kind: 'failed', code };
    }
  }

  cancel(): void {
    this.resolver.cancel();
  }
}
