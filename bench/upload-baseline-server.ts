import { createWriteStream } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import Fastify from 'fastify';

// The reference point of bench/upload.ts: the least a Fastify route can do with a multipart upload,
// stream the file part straight to disk.
const dir = await mkdtemp(path.join(os.tmpdir(), 'pps-bench-baseline-'));
const app = Fastify();
await app.register(multipart, { limits: { fileSize: 21 * 1024 * 1024, files: 1 } });
app.get('/health', async () => ({ status: 'ok' }));
let n = 0;
app.post('/upload', async (request) => {
  const part = await request.file();
  if (!part) throw new Error('no file');
  await pipeline(part.file, createWriteStream(path.join(dir, `f${++n}`)));
  return { ok: true };
});
const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.stdout.write(`${address}\n`);
