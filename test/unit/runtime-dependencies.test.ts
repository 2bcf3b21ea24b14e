import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/processes.js';

const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** `@scope/name/sub` and `name/sub` as the package they come from. */
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** esbuild's bundle graph from these entry points (files of the project), packages left outside. */
const importGraph = (...entries: string[]) =>
  build({
    entryPoints: entries.map((entry) => path.join(ROOT, entry)),
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outdir: path.join(ROOT, 'dist-runtime-dependencies-test'),
    logLevel: 'silent',
  });

/**
 * What the server and the CLI load at run time, followed from their entry points through every static
 * and dynamic import (esbuild's bundle graph, packages left outside): each package must be a runtime
 * dependency, so the image's `npm ci --omit=dev` (deploy/Dockerfile) runs them. openapi-fetch is one:
 * `estate-publisher apply` talks to the API through the typed client (src/cli/apply/run.ts), so it
 * stays in dependencies (docs/decisions.md, "Rough edges (issue 38)").
 */
describe('runtime dependencies', () => {
  it('are every package src/ imports from the server and the CLI, the typed client of `apply` included', async () => {
    const result = await importGraph('src/server.ts', 'src/cli/index.ts');
    const imported = new Set<string>();
    for (const input of Object.values(result.metafile.inputs)) {
      for (const i of input.imports) {
        // A relative path is a file of ours, never a package (esbuild has listed one import of
        // src/modules/dashboard/screens/members.tsx as external though it bundles the same file from the others).
        if (!i.external || i.path.startsWith('node:') || i.path.startsWith('.') || builtinModules.includes(i.path)) continue;
        imported.add(packageOf(i.path));
      }
    }
    expect(imported.size).toBeGreaterThan(10);
    expect([...imported].filter((name) => !(name in manifest.dependencies)).sort()).toEqual([]);
    // The server alone never loads it: only the apply command, through a dynamic import.
    expect(imported.has('openapi-fetch')).toBe(true);
    expect(manifest.devDependencies['openapi-fetch']).toBeUndefined();
  });

  it('leave openapi-fetch out of the server: only the CLI’s apply command loads it', async () => {
    const result = await importGraph('src/server.ts');
    const imports = Object.values(result.metafile.inputs).flatMap((input) => input.imports.map((i) => i.path));
    expect(imports).toContain('fastify');
    expect(imports).not.toContain('openapi-fetch');
  });
});
