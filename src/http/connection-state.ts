import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * What the service knows about each client connection, so that an HTTP error on it never yields a
 * second answer to one request, nor an answer out of order with pipelined ones: the requests still
 * being answered, the last one dispatched, and whether that one was answered before its body ended.
 */
interface ConnectionState {
  /** Dispatched requests whose answer is not finished, in order. */
  pending: IncomingMessage[];
  last: IncomingMessage | undefined;
  answeredEarly: boolean;
  waiters: Array<{ ready: () => boolean; run: () => void }>;
}

const STATE = Symbol('connection state');
type Tracked = { [STATE]?: ConnectionState };

function stateOf(socket: object): ConnectionState {
  const s = socket as Tracked;
  s[STATE] ??= { pending: [], last: undefined, answeredEarly: false, waiters: [] };
  return s[STATE];
}

/** Counts the requests each connection has in flight (Node dispatches pipelined requests at once). */
export function trackConnections(server: Server): void {
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const state = stateOf(req.socket);
    state.pending.push(req);
    state.last = req;
    state.answeredEarly = false;
    res.once('close', () => {
      const at = state.pending.indexOf(req);
      if (at !== -1) state.pending.splice(at, 1);
      if (state.waiters.length === 0) return;
      const ready = state.waiters.filter((w) => w.ready());
      state.waiters = state.waiters.filter((w) => !ready.includes(w));
      for (const w of ready) w.run();
    });
  });
}

/** The request on req's connection is being answered before its body ended; cleared when the body ends. */
export function markAnsweredEarly(req: IncomingMessage): void {
  const state = stateOf(req.socket);
  if (state.last !== req) return;
  state.answeredEarly = true;
  req.once('end', () => {
    if (state.last === req) state.answeredEarly = false;
  });
}

export interface ConnectionView {
  /** The request whose bytes were being read is still incomplete: an HTTP error belongs to it. */
  lastIncomplete: boolean;
  /** That request already has (or had) its answer. */
  lastAnswered: boolean;
  /** Runs fn once every dispatched request before the last one is answered (the last one too, unless it is incomplete). */
  whenEarlierAnswered(fn: () => void): void;
}

export function connectionView(socket: object): ConnectionView {
  const state = (socket as Tracked)[STATE];
  const last = state?.last;
  const res = (socket as { _httpMessage?: ServerResponse | null })._httpMessage;
  return {
    lastIncomplete: last !== undefined && !last.complete,
    lastAnswered: state?.answeredEarly === true || res?.headersSent === true,
    whenEarlierAnswered(fn) {
      const incompleteLast = last !== undefined && !last.complete ? last : undefined;
      const ready = () => !state || state.pending.every((r) => r === incompleteLast);
      if (ready()) fn();
      else state?.waiters.push({ ready, run: fn });
    },
  };
}
