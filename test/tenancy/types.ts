import type { TestApp, TestOrg } from '../helpers/app.js';
import type { TestDns } from '../helpers/dns-server.js';

/** Two organizations; A owns the resources every case points at, B tries to reach them. */
export interface World {
  t: TestApp;
  a: TestOrg;
  b: TestOrg;
  /** A's read-only key, A's revoked key and A's publishable (browser) key. */
  readOnlyA: string;
  revokedA: string;
  publishableA: string;
  /** Ids of A's resources, filled by each module's prepare(). */
  ids: Record<string, string>;
  /** The DNS server of the app's DNS_SERVERS (pebble-challtestsrv): a domain's TXT record is set there. */
  dns: TestDns;
}

export interface CaseRequest {
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface RouteCase {
  /** A valid request by A on A's own resources; may create what it needs first (destructive routes). */
  request: (w: World) => CaseRequest | Promise<CaseRequest>;
  /**
   * What B's key gets on that request: 404 (A's resource is invisible), or 'isolated' when the route
   * names no resource of A (a create or a list): it answers B's own world and never shows A's ids.
   */
  foreign: 404 | 'isolated';
}

export interface ModuleCases {
  /** Creates A's resources for this module's cases and records their ids in w.ids. */
  prepare?: (w: World) => Promise<void>;
  /** Keyed by "METHOD /path/:param" exactly as the route is registered. */
  routes: Record<string, RouteCase>;
}
