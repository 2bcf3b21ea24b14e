import { Writable } from 'node:stream';

export interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  dependency?: string;
  [field: string]: unknown;
}

/** A pino destination kept in memory, for tests that read what the service logged. */
export function logSink(): { stream: Writable; lines(): LogLine[]; clear(): void } {
  let text = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += chunk.toString();
      done();
    },
  });
  return {
    stream,
    lines: () =>
      text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as LogLine),
    clear: () => {
      text = '';
    },
  };
}
