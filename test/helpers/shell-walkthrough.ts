import { readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Replays a README shell block of curl commands with fetch, as a shell would run them: the block is
 * split into commands (quotes, `\` continuations and multi-line quoted bodies as sh reads them),
 * `$VAR` is expanded outside single quotes, `VAR=$(curl … | jq -r .path)` keeps a field of the
 * answer, and each `# => <status> <answer>` comment after a command is checked against its answer.
 * Only what the README uses is understood; anything else fails loudly rather than being skipped.
 */
export interface Command {
  /** The command as written (for messages). */
  text: string;
  /** The `# =>` lines after it, joined: "<status> <answer>". */
  expected: string | undefined;
}

/** The commands of a shell block, each with the `# =>` comment that follows it. */
export function splitCommands(block: string): Command[] {
  const commands: Command[] = [];
  let current = '';
  let quote: "'" | '"' | undefined;
  let expecting: string[] | undefined;
  const lines = block.split('\n');
  const flush = () => {
    if (current.trim()) commands.push({ text: current.trim(), expected: undefined });
    current = '';
  };
  for (const line of lines) {
    if (quote === undefined && current === '' && /^\s*#/.test(line)) {
      const comment = line.trim();
      if (comment.startsWith('# => ')) {
        expecting = [comment.slice(5)];
        const last = commands.at(-1);
        if (!last || last.expected !== undefined) throw new Error(`"# =>" without a command before it: ${comment}`);
        last.expected = comment.slice(5);
      } else if (expecting && /^#\s{3,}\S/.test(comment)) {
        const last = commands.at(-1)!;
        last.expected = `${last.expected}${comment.replace(/^#\s+/, '')}`;
      } else expecting = undefined;
      continue;
    }
    expecting = undefined;
    for (let i = 0; i < line.length; i++) {
      const c = line[i]!;
      if (quote === undefined && (c === "'" || c === '"')) quote = c;
      else if (quote === c) quote = undefined;
      else if (quote !== "'" && c === '\\') i++;
    }
    if (quote !== undefined) current += `${line}\n`;
    else if (line.endsWith('\\')) current += `${line.slice(0, -1)} `;
    else {
      current += line;
      flush();
    }
  }
  if (quote !== undefined) throw new Error(`unterminated quote in:\n${current}`);
  flush();
  return commands;
}

type Word = string;

/** sh's word splitting and expansion for what the README uses: quotes, $VAR, ${VAR} and pipes. */
export function words(text: string, env: Record<string, string>): Word[][] {
  const pipeline: Word[][] = [[]];
  let word: string | undefined;
  let quote: "'" | '"' | undefined;
  const expand = (i: number): [string, number] => {
    const braced = text[i + 1] === '{';
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i + (braced ? 2 : 1)));
    if (!m) return ['$', i];
    const name = m[0];
    if (!(name in env)) throw new Error(`$${name} is not set when this command runs:\n${text}`);
    return [env[name]!, i + name.length + (braced ? 2 : 0)];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word = (word ?? '') + c;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '$') {
        const [value, end] = expand(i);
        word = (word ?? '') + value;
        i = end;
      } else if (c === '\\' && ['"', '\\', '$', '`'].includes(text[i + 1] ?? '')) word = (word ?? '') + text[++i];
      else word = (word ?? '') + c;
      continue;
    }
    if (/\s/.test(c)) {
      if (word !== undefined) pipeline.at(-1)!.push(word);
      word = undefined;
    } else if (c === '|') {
      if (word !== undefined) pipeline.at(-1)!.push(word);
      word = undefined;
      pipeline.push([]);
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= '';
    } else if (c === '$') {
      const [value, end] = expand(i);
      word = (word ?? '') + value;
      i = end;
    } else if ('`;&<>()'.includes(c)) {
      throw new Error(`the replay does not understand "${c}" in:\n${text}`);
    } else word = (word ?? '') + c;
  }
  if (word !== undefined) pipeline.at(-1)!.push(word);
  return pipeline;
}

export interface Request {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | FormData | undefined;
}

/** A curl command line as fetch arguments; `localhost:3000` becomes `base`, `@file` is read under `root`. */
export async function curlRequest(args: Word[], base: string, root: string): Promise<Request> {
  if (args[0] !== 'curl') throw new Error(`not a curl command: ${args.join(' ')}`);
  let method: string | undefined;
  let url: string | undefined;
  const headers: Record<string, string> = {};
  let body: string | FormData | undefined;
  for (let i = 1; i < args.length; i++) {
    const a = args[i]!;
    const value = () => {
      const v = args[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '-s') continue;
    if (a === '-X') method = value();
    else if (a === '-H') {
      const h = value();
      const colon = h.indexOf(':');
      headers[h.slice(0, colon).trim().toLowerCase()] = h.slice(colon + 1).trim();
    } else if (a === '-d') body = value();
    else if (a === '-F') {
      const field = value();
      const eq = field.indexOf('=');
      const name = field.slice(0, eq);
      const v = field.slice(eq + 1);
      const form = body instanceof FormData ? body : new FormData();
      if (v.startsWith('@')) {
        const file = path.resolve(root, v.slice(1));
        form.append(name, new Blob([await readFile(file)]), path.basename(file));
      } else form.append(name, v);
      body = form;
    } else if (a.startsWith('-')) throw new Error(`the replay does not understand curl's ${a}`);
    else if (url === undefined) url = a;
    else throw new Error(`a second URL: ${a}`);
  }
  if (!url?.startsWith('localhost:3000/')) throw new Error(`expected a URL on localhost:3000, got ${url}`);
  return { method: method ?? (body === undefined ? 'GET' : 'POST'), url: `${base}${url.slice('localhost:3000'.length)}`, headers, body };
}

/** `jq -r .a.b[0].c` */
export function jqPath(value: unknown, filter: string): unknown {
  if (!/^\.([A-Za-z_][\w]*|\[\d+\])?([.][A-Za-z_]\w*|\[\d+\])*$/.test(filter)) throw new Error(`the replay does not understand jq filter ${filter}`);
  let out = value;
  for (const m of filter.matchAll(/\.([A-Za-z_]\w*)|\[(\d+)\]/g)) {
    out = m[1] !== undefined ? (out as Record<string, unknown>)?.[m[1]] : (out as unknown[])?.[Number(m[2])];
  }
  return out;
}

const ANY = '…*';

/**
 * The README's abridged JSON as a pattern: `…` outside a string stands for members or elements left
 * out (an object or array without it must match exactly), and `…` inside a string for any characters.
 */
export function parseExpected(text: string): unknown {
  let out = '';
  const open: string[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i];
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    if (c === '{' || c === '[') open.push(c);
    if (c === '}' || c === ']') open.pop();
    out += c === '…' ? (open.at(-1) === '{' ? `"${ANY}":0` : `"${ANY}"`) : c;
  }
  return JSON.parse(out);
}

/** Where actual differs from the pattern, as "path: why"; empty when it matches. */
export function differences(actual: unknown, pattern: unknown, at = '$'): string[] {
  if (typeof pattern === 'string') {
    if (pattern.includes('…')) {
      const re = new RegExp(
        `^${pattern
          .split('…')
          .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('[\\s\\S]*')}$`,
      );
      return typeof actual === 'string' && re.test(actual) ? [] : [`${at}: ${JSON.stringify(actual)} does not match ${JSON.stringify(pattern)}`];
    }
    return actual === pattern ? [] : [`${at}: ${JSON.stringify(actual)}, expected ${JSON.stringify(pattern)}`];
  }
  if (Array.isArray(pattern)) {
    if (!Array.isArray(actual)) return [`${at}: ${JSON.stringify(actual)}, expected an array`];
    const wanted = pattern.filter((p) => p !== ANY);
    if (wanted.length === pattern.length) {
      if (actual.length !== pattern.length) return [`${at}: ${actual.length} elements, expected ${pattern.length}`];
      return pattern.flatMap((p, i) => differences(actual[i], p, `${at}[${i}]`));
    }
    // With `…`: the elements shown, in their order, among the actual ones.
    let from = 0;
    for (const p of wanted) {
      const found = actual.findIndex((a, i) => i >= from && differences(a, p).length === 0);
      if (found < 0) return [`${at}: no element after index ${from} matches ${JSON.stringify(p)}`];
      from = found + 1;
    }
    return [];
  }
  if (pattern !== null && typeof pattern === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return [`${at}: ${JSON.stringify(actual)}, expected an object`];
    const p = pattern as Record<string, unknown>;
    const a = actual as Record<string, unknown>;
    const out: string[] = [];
    if (!(ANY in p)) {
      const extra = Object.keys(a).filter((k) => !(k in p));
      if (extra.length > 0) out.push(`${at}: has ${extra.join(', ')}, which the README does not show (add them or "…")`);
    }
    for (const [k, v] of Object.entries(p)) {
      if (k === ANY) continue;
      if (!(k in a)) out.push(`${at}.${k}: missing`);
      else out.push(...differences(a[k], v, `${at}.${k}`));
    }
    return out;
  }
  return Object.is(actual, pattern) ? [] : [`${at}: ${JSON.stringify(actual)}, expected ${JSON.stringify(pattern)}`];
}
