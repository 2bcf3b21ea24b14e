import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_FLAGS } from '../browser/chromium.js';
import { type TestApp, createTestApp } from '../helpers/app.js';
import { type TestDns, startChalltestsrv } from '../helpers/dns-server.js';
import { seedPage } from '../helpers/page-seed.js';
import { ROOT, freePort } from '../helpers/processes.js';

const HOST = 'homes.test-agency.example';
const UNVERIFIED = 'unverified.test-agency.example';

/** Debian's packages (`apt-get install caddy pebble chromium`; .ci/run installs them when missing). */
const CADDY = process.env.CADDY_PATH ?? '/usr/bin/caddy';
const PEBBLE = process.env.PEBBLE_PATH ?? '/usr/bin/pebble';

/** GET over HTTPS trusting `ca` (Pebble's own listener certificate). */
function httpsGet(url: string, ca: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} did not come up within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

function started(command: string, args: string[], env: NodeJS.ProcessEnv, log: string[]): ChildProcess {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const keep = (d: Buffer) => {
    log.push(d.toString());
    if (log.length > 400) log.shift();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return child;
}

/**
 * Issue 37's end-to-end check with real parts: the service (PGlite) behind Debian's Caddy with on-demand
 * TLS asking GET /internal/tls/allowed, Debian's Pebble as the ACME authority (PEBBLE_VA_ALWAYS_VALID: no
 * challenge is reachable here; its own HTTPS certificate made by openssl), and Chromium resolving the custom
 * hostnames to 127.0.0.1. A verified hostname shows its estate's page over a certificate Pebble issued; a
 * hostname never verified gets no certificate (the handshake fails) and no page.
 */
describe('your own domain over TLS: Caddy, Pebble and Chromium (issue 37)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pps-tls-'));
  const children: ChildProcess[] = [];
  const caddyLog: string[] = [];
  const pebbleLog: string[] = [];
  let t: TestApp;
  let dns: TestDns;
  let httpsPort: number;
  let pebbleManagement: string;
  let pebbleCert: string;
  let profile: string | undefined;
  let context: BrowserContext;
  let estateName: string;

  beforeAll(async () => {
    // The service, its estate's page on, HOST verified through the test's DNS server; UNVERIFIED only added.
    dns = await startChalltestsrv();
    t = await createTestApp({ env: { PUBLIC_URL: 'https://pages.test-publisher.example', DNS_SERVERS: dns.server } });
    const org = await t.createOrg('TLS agency');
    estateName = 'Lindenpark Homes';
    const seed = await seedPage(t, org.id, org.key, 4, estateName);
    expect((await t.request({ method: 'PUT', url: `/api/v1/estates/${seed.estateId}/page`, key: org.key, body: { enabled: true } })).statusCode).toBe(200);
    for (const hostname of [HOST, UNVERIFIED]) {
      const added = await t.request({ method: 'POST', url: `/api/v1/estates/${seed.estateId}/domains`, key: org.key, body: { hostname } });
      expect(added.statusCode).toBe(201);
      if (hostname === HOST) {
        const { txtName, txtValue } = added.json().verification;
        await dns.setTxt(txtName, txtValue);
        expect((await t.request({ method: 'POST', url: `/api/v1/estates/${seed.estateId}/domains/${HOST}/verify`, key: org.key })).statusCode).toBe(200);
      }
    }
    const appPort = await freePort();
    await t.app.listen({ port: appPort, host: '127.0.0.1' });

    // Pebble: its ACME listener's certificate, made here.
    const key = path.join(dir, 'pebble-key.pem');
    const cert = path.join(dir, 'pebble-cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
    pebbleCert = execFileSync('cat', [cert]).toString();
    const [acmePort, managementPort, challengeHttp, challengeTls] = [await freePort(), await freePort(), await freePort(), await freePort()];
    const config = path.join(dir, 'pebble.json');
    writeFileSync(
      config,
      JSON.stringify({
        pebble: {
          listenAddress: `127.0.0.1:${acmePort}`,
          managementListenAddress: `127.0.0.1:${managementPort}`,
          certificate: cert,
          privateKey: key,
          httpPort: challengeHttp,
          tlsPort: challengeTls,
          ocspResponderURL: '',
          externalAccountBindingRequired: false,
        },
      }),
    );
    const pebbleEnv = { ...process.env, PEBBLE_VA_ALWAYS_VALID: '1', PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0', PEBBLE_AUTHZREUSE: '100' };
    children.push(started(PEBBLE, ['-config', config, '-dnsserver', dns.server], pebbleEnv, pebbleLog));
    pebbleManagement = `https://127.0.0.1:${managementPort}`;
    await until('pebble', async () => (await httpsGet(`https://127.0.0.1:${acmePort}/dir`, pebbleCert)).status === 200);

    // Caddy: on-demand TLS for every name, asking the service; Pebble as its only CA.
    const httpPort = await freePort();
    httpsPort = await freePort();
    const caddyfile = path.join(dir, 'Caddyfile');
    writeFileSync(
      caddyfile,
      [
        '{',
        '\tadmin off',
        `\thttp_port ${httpPort}`,
        `\thttps_port ${httpsPort}`,
        `\tacme_ca https://127.0.0.1:${acmePort}/dir`,
        `\tacme_ca_root ${cert}`,
        '\tskip_install_trust',
        `\tstorage file_system ${path.join(dir, 'caddy-data')}`,
        '\ton_demand_tls {',
        `\t\task http://127.0.0.1:${appPort}/internal/tls/allowed`,
        '\t}',
        '}',
        'https:// {',
        '\ttls {',
        '\t\ton_demand',
        '\t}',
        `\treverse_proxy 127.0.0.1:${appPort}`,
        '}',
        '',
      ].join('\n'),
    );
    const caddyEnv = { ...process.env, HOME: dir, XDG_DATA_HOME: path.join(dir, 'xdg-data'), XDG_CONFIG_HOME: path.join(dir, 'xdg-config') };
    children.push(started(CADDY, ['run', '--config', caddyfile, '--adapter', 'caddyfile'], caddyEnv, caddyLog));
    await until('caddy', () => listening(httpsPort));

    profile = mkdtempSync(path.join(os.tmpdir(), 'pps-tls-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      // Pebble's roots are made at each start and trusted by nobody: the issuer is checked below instead.
      ignoreHTTPSErrors: true,
      args: [...CHROMIUM_FLAGS, `--host-resolver-rules=MAP ${HOST} 127.0.0.1, MAP ${UNVERIFIED} 127.0.0.1`],
    });
  });

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    if (profile) rmSync(profile, { recursive: true, force: true });
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    await t?.close();
    await dns?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('deploy/Caddyfile adapts: its own host by name, every other name on demand, asking the service', () => {
    const adapted = JSON.parse(
      execFileSync(CADDY, ['adapt', '--config', path.join(ROOT, 'deploy/Caddyfile'), '--adapter', 'caddyfile'], {
        env: { ...process.env, PUBLIC_HOST: 'pages.example.com', UPSTREAM: '127.0.0.1:3000', HOME: dir },
        stdio: ['ignore', 'pipe', 'ignore'],
      }).toString(),
    );
    const automation = adapted.apps.tls.automation;
    expect(automation.on_demand.ask).toBe('http://127.0.0.1:3000/internal/tls/allowed');
    expect(automation.policies).toEqual([{ subjects: ['pages.example.com'] }, { on_demand: true }]);
  });

  it('shows the estate’s page at https://homes.test-agency.example/ over a certificate Pebble issued', async () => {
    const page = await context.newPage();
    const response = await page.goto(`https://${HOST}:${httpsPort}/`, { timeout: 60_000 }).catch((err: Error) => {
      throw new Error(`${err.message}\ncaddy: ${caddyLog.join('').slice(-3000)}\npebble: ${pebbleLog.join('').slice(-1500)}`);
    });
    expect(response?.status()).toBe(200);
    expect(await page.textContent('body')).toContain(estateName);
    expect(await page.locator('link[rel=canonical]').getAttribute('href')).toBe(`https://${HOST}/`);
    const security = await response!.securityDetails();
    expect(security?.subjectName).toBe(HOST);
    // The issuer is Pebble's intermediate of this run (its name carries a random suffix).
    const intermediate = new X509Certificate((await httpsGet(`${pebbleManagement}/intermediates/0`, pebbleCert)).body);
    const issuerCn = /CN=([^\n,]+)/.exec(intermediate.subject)?.[1];
    expect(issuerCn).toMatch(/^Pebble Intermediate CA/);
    expect(security?.issuer).toBe(issuerCn);
    await page.close();
  });

  it('gives a hostname nobody verified no certificate: the handshake fails and no page is shown', async () => {
    const page = await context.newPage();
    const failure = await page.goto(`https://${UNVERIFIED}:${httpsPort}/`, { timeout: 30_000 }).then(
      () => 'loaded',
      (err: Error) => err.message,
    );
    expect(failure).toMatch(/net::ERR_(SSL_PROTOCOL_ERROR|SSL_VERSION_OR_CIPHER_MISMATCH|CONNECTION_CLOSED|CONNECTION_RESET)/);
    await page.close();
    // The handshake itself, outside the browser: Caddy has no certificate to offer for the name.
    const handshake = await new Promise<string>((resolve) => {
      const socket = tls.connect({ host: '127.0.0.1', port: httpsPort, servername: UNVERIFIED, rejectUnauthorized: false }, () => {
        resolve(`certificate for ${socket.getPeerCertificate().subject?.CN}`);
        socket.destroy();
      });
      socket.once('error', (err) => resolve(`failed: ${err.message}`));
    });
    expect(handshake).toMatch(/^failed: /);
  });
});
