/**
 * Undo and redo as a list of immutable states: every edit since the screen opened can be undone.
 * A drag shows its moves live and records one step when it ends (the island commits once).
 */
export interface History<T> {
  readonly past: readonly T[];
  readonly present: T;
  readonly future: readonly T[];
}

/** Steps kept: far more than a working session makes; the oldest go first past this. */
export const MAX_STEPS = 1_000;

export const startHistory = <T>(present: T): History<T> => ({ past: [], present, future: [] });

/** Records `next` as a new step (unless it is the present state itself); redo is no longer possible. */
export function commit<T>(h: History<T>, next: T): History<T> {
  if (next === h.present) return h;
  return { past: [...h.past, h.present].slice(-MAX_STEPS), present: next, future: [] };
}

export function undo<T>(h: History<T>): History<T> {
  const previous = h.past[h.past.length - 1];
  if (previous === undefined) return h;
  return { past: h.past.slice(0, -1), present: previous, future: [h.present, ...h.future] };
}

export function redo<T>(h: History<T>): History<T> {
  const next = h.future[0];
  if (next === undefined) return h;
  return { past: [...h.past, h.present], present: next, future: h.future.slice(1) };
}

export const canUndo = (h: History<unknown>) => h.past.length > 0;
export const canRedo = (h: History<unknown>) => h.future.length > 0;
