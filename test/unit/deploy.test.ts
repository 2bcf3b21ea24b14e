import { readFileSync } from 'node:fs';
import path from 'node:path';
import { validate } from 'dockerfile-utils';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONFIG_VARIABLES, loadConfig } from '../../src/config.js';
import { ROOT } from '../helpers/processes.js';

/**
 * deploy/ cannot be built here (no image registry), so its files are checked instead: the Dockerfile
 * is linted and holds the promised shape, and compose.yaml parses and sets only variables the config
 * loader reads, with values it accepts.
 */
const read = (file: string) => readFileSync(path.join(ROOT, 'deploy', file), 'utf8');
const known = new Set<string>(CONFIG_VARIABLES);

describe('deploy/Dockerfile', () => {
  const dockerfile = read('Dockerfile');

  it('passes dockerfile-utils without a diagnostic', () => {
    const diagnostics = validate(dockerfile).map((d) => `${d.range.start.line + 1}: ${d.message}`);
    expect(diagnostics).toEqual([]);
  });

  it('is multi-stage, installs production dependencies only, runs as a non-root user, checks readiness and runs npm start', () => {
    expect(dockerfile.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(2);
    expect(dockerfile).toMatch(/^RUN npm ci --omit=dev\b/m);
    const users = [...dockerfile.matchAll(/^USER (\S+)/gm)].map((m) => m[1]);
    expect(users.at(-1)).toBe('node');
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n?.*\/health\/ready/m);
    expect(dockerfile).toMatch(/^CMD \["npm", "start"/m);
  });

  it('sets only variables the service reads', () => {
    const names = [...dockerfile.matchAll(/^ENV (.+)$/gm)].flatMap((m) => [...m[1]!.matchAll(/(\w+)=/g)].map((n) => n[1]!));
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((n) => !known.has(n))).toEqual([]);
  });
});

describe('deploy/compose.yaml', () => {
  const compose = parse(read('compose.yaml'), { merge: true }) as {
    services: Record<string, { build?: { dockerfile?: string }; image?: string; environment?: Record<string, string> }>;
  };
  const apis = Object.entries(compose.services).filter(([, s]) => s.build?.dockerfile === 'deploy/Dockerfile');

  it('runs two API instances with PostgreSQL, Redis, an S3-compatible store and a load balancer', () => {
    expect(apis.map(([name]) => name)).toEqual(['api-1', 'api-2']);
    const images = Object.values(compose.services).map((s) => s.image ?? '');
    for (const image of ['postgres:', 'redis:', 'minio/minio:', 'nginx:']) expect(images.some((i) => i.startsWith(image))).toBe(true);
    const nginx = read('nginx.conf');
    for (const [name] of apis) expect(nginx).toContain(`server ${name}:3000`);
  });

  it('gives the instances only variables the config loader reads, with values it accepts', () => {
    for (const [name, service] of apis) {
      const env = service.environment ?? {};
      expect(
        Object.keys(env).filter((n) => !known.has(n)),
        name,
      ).toEqual([]);
      // ${VAR:?message} and ${VAR:-default} are filled in by compose from the operator's environment.
      const filled = Object.fromEntries(
        Object.entries(env).map(([k, v]) => [
          k,
          String(v)
            .replace(/\$\{(\w+):\?[^}]*\}/g, 'an-operator-token-0123456789')
            .replace(/\$\{\w+:-([^}]*)\}/g, '$1'),
        ]),
      );
      const config = loadConfig(filled);
      expect(config).toMatchObject({ trustProxy: true, storage: { driver: 's3', forcePathStyle: true } });
      expect(config.databaseUrl).toMatch(/^postgres:\/\/.+@postgres:5432\//);
      expect(config.redisUrl).toBe('redis://redis:6379');
    }
  });
});
