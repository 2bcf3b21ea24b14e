import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/processes.js';

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );

/** Without OTEL_EXPORTER_OTLP_ENDPOINT the tracing SDK must never be imported: only dynamic imports behind the setting reach it. */
describe('the OpenTelemetry SDK is loaded only when tracing is configured', () => {
  const files = sources(path.join(ROOT, 'src')).map((file) => ({ file: path.relative(ROOT, file), text: readFileSync(file, 'utf8') }));

  it('is imported by src/observability/tracing.ts alone', () => {
    const sdk = /from '@opentelemetry\/(?!api')|import\('@opentelemetry\/(?!api')/;
    expect(files.filter((f) => sdk.test(f.text)).map((f) => f.file)).toEqual(['src/observability/tracing.ts']);
    // tracing.ts loads the SDK with dynamic imports inside startTracing, never at module load.
    expect(files.find((f) => f.file === 'src/observability/tracing.ts')!.text).not.toMatch(/^import .*@opentelemetry/m);
  });

  it('whose modules are reached only through dynamic imports guarded by config.tracing', () => {
    for (const module of ['observability/tracing.js', 'observability/request-span.js']) {
      const importers = files.filter((f) => f.text.includes(module));
      expect(importers.length).toBeGreaterThan(0);
      const escaped = module.replace(/[./]/g, (c) => `\\${c}`);
      for (const f of importers) {
        expect(f.text, f.file).not.toMatch(new RegExp(`^import .*${escaped}`, 'm'));
        // On the line that loads it, behind the setting.
        expect(f.text, f.file).toMatch(new RegExp(`config\\.tracing\\b[^\\n]*import\\('\\./${escaped}'\\)`));
      }
    }
  });
});
