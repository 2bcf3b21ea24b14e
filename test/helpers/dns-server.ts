import { type ChildProcess, spawn } from 'node:child_process';
import dgram from 'node:dgram';
import { existsSync } from 'node:fs';
import dnsPacket from 'dns-packet';
import { freePort } from './processes.js';

/** Debian's pebble-challtestsrv (package pebble): a DNS server whose TXT records a test sets over HTTP. */
export const CHALLTESTSRV = '/usr/bin/pebble-challtestsrv';

export interface TestDns {
  /** For DNS_SERVERS: 127.0.0.1:<port>. */
  server: string;
  /** Adds a TXT value to `name` (more than one may be set). */
  setTxt(name: string, value: string): Promise<void>;
  /** Removes every TXT value of `name`. */
  clearTxt(name: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The test's own DNS server: Debian's pebble-challtestsrv where it is installed (CI installs it), else
 * one in this process (`startNodeDns`; also with TEST_DNS=node), so `npm test` needs nothing but Node.js on a
 * fresh machine.
 */
export async function startTestDns(): Promise<TestDns> {
  return existsSync(CHALLTESTSRV) && process.env.TEST_DNS !== 'node' ? startChalltestsrv() : startNodeDns();
}

/**
 * A DNS server in this process on a free UDP port of 127.0.0.1 (dns-packet for the wire format): TXT
 * records as set and, as pebble-challtestsrv does, an empty answer (NOERROR) for any other name or type.
 * Answers are small, so UDP alone serves Node's resolver (c-ares retries over TCP only when truncated).
 */
export async function startNodeDns(): Promise<TestDns> {
  const records = new Map<string, string[]>();
  const key = (name: string) => name.replace(/\.$/, '').toLowerCase();
  const socket = dgram.createSocket('udp4');
  socket.on('message', (message, peer) => {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (!question) return;
    const values = records.get(key(question.name));
    const answer = dnsPacket.encode({
      id: query.id,
      type: 'response',
      flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE,
      questions: [question],
      answers:
        values && question.type === 'TXT' ? values.map((data) => ({ type: 'TXT' as const, class: 'IN' as const, name: question.name, ttl: 0, data })) : [],
    });
    socket.send(answer, peer.port, peer.address);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => resolve());
  });
  return {
    server: `127.0.0.1:${socket.address().port}`,
    setTxt: async (name, value) => {
      records.set(key(name), [...(records.get(key(name)) ?? []), value]);
    },
    clearTxt: async (name) => {
      records.delete(key(name));
    },
    stop: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

/**
 * A pebble-challtestsrv of the test's own: its DNS on a free port of 127.0.0.1 (UDP and TCP), its
 * management API on another, its HTTP-01, HTTPS and TLS-ALPN listeners off.
 */
export async function startChalltestsrv(): Promise<TestDns> {
  const dnsPort = await freePort();
  const managementPort = await freePort();
  const child: ChildProcess = spawn(
    CHALLTESTSRV,
    ['-dns01', `127.0.0.1:${dnsPort}`, '-management', `127.0.0.1:${managementPort}`, '-http01', '', '-https01', '', '-tlsalpn01', ''],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const management = `http://127.0.0.1:${managementPort}`;
  const call = async (path: string, body: unknown) => {
    const res = await fetch(`${management}${path}`, { method: 'POST', body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`pebble-challtestsrv ${path}: ${res.status}`);
  };
  const deadline = Date.now() + 10_000;
  for (;;) {
    // clear-txt of a name never set answers 200 once the server listens.
    const up = await call('/clear-txt', { host: 'probe.invalid.' }).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`pebble-challtestsrv did not start (DNS ${dnsPort}, management ${managementPort})`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const fqdn = (name: string) => (name.endsWith('.') ? name : `${name}.`);
  return {
    server: `127.0.0.1:${dnsPort}`,
    setTxt: (name, value) => call('/set-txt', { host: fqdn(name), value }),
    clearTxt: (name) => call('/clear-txt', { host: fqdn(name) }),
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
