import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { manifestJsonSchema } from '../../src/cli/apply/manifest.js';
import { runCli } from '../../src/cli/index.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function cli(args: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(
    args,
    (s) => {
      out += s;
    },
    (s) => {
      err += s;
    },
  );
  return { code, out, err };
}

describe('the project file schema', () => {
  it('examples/project.schema.json is what the TypeBox definitions generate (npm run manifest:schema)', async () => {
    const committed = JSON.parse(await readFile(path.join(ROOT, 'examples/project.schema.json'), 'utf8'));
    expect(committed).toEqual(manifestJsonSchema());
    const printed = await cli(['schema']);
    expect(printed.code).toBe(0);
    expect(JSON.parse(printed.out)).toEqual(committed);
  });

  it('an editor’s JSON Schema validator accepts the example and names a mistake in it', async () => {
    const validate = new Ajv.default({ strict: false, allErrors: true }).compile(manifestJsonSchema());
    const example = parse(await readFile(path.join(ROOT, 'examples/project.yaml'), 'utf8'));
    expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
    example.buildings[0].apartments[0].status = 'RESERVED';
    expect(validate(example)).toBe(false);
    expect(validate.errors?.map((e) => e.instancePath)).toContain('/buildings/0/apartments/0/status');
  });
});

describe('estate-publisher apply: how it is called', () => {
  it('needs a file, a URL and a key; each missing one is a usage error (exit 2) naming it', async () => {
    const saved = { url: process.env.PUBLISHER_URL, key: process.env.PUBLISHER_KEY };
    Reflect.deleteProperty(process.env, 'PUBLISHER_URL');
    Reflect.deleteProperty(process.env, 'PUBLISHER_KEY');
    try {
      const noFile = await cli(['apply']);
      expect([noFile.code, noFile.err]).toEqual([2, expect.stringContaining('apply takes one project file')]);
      const noUrl = await cli(['apply', 'examples/project.yaml']);
      expect([noUrl.code, noUrl.err]).toEqual([2, expect.stringContaining('--url (or PUBLISHER_URL) is required')]);
      const badUrl = await cli(['apply', 'examples/project.yaml', '--url', 'ftp://x', '--key', 'k']);
      expect([badUrl.code, badUrl.err]).toEqual([2, expect.stringContaining('--url must be an http(s) URL')]);
      const noKey = await cli(['apply', 'examples/project.yaml', '--url', 'http://127.0.0.1:9']);
      expect([noKey.code, noKey.err]).toEqual([2, expect.stringContaining('--key (or PUBLISHER_KEY) is required')]);
      const unknown = await cli(['apply', 'examples/project.yaml', '--force']);
      expect(unknown.code).toBe(2);
      const missing = await cli(['apply', path.join(ROOT, 'examples/nope.yaml'), '--url', 'http://127.0.0.1:9', '--key', 'k']);
      expect([missing.code, missing.err]).toEqual([2, expect.stringContaining('cannot read')]);
    } finally {
      if (saved.url !== undefined) process.env.PUBLISHER_URL = saved.url;
      if (saved.key !== undefined) process.env.PUBLISHER_KEY = saved.key;
    }
  });
});
