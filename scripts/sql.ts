/**
 * Writes the SQL the service sends, for review in the diff (as immich's `npm run sync:sql` writes
 * src/queries/*.sql): every repository method's statements, as Kysely compiles them (parameters as $n
 * placeholders), one file per repository under src/queries/, and every hand-written statement of src/
 * (a string or template passed to query, queryText or exec) in src/queries/hand-written.sql.
 *
 *   npm run sql             rewrite src/queries/
 *   npm run sql -- --check  fail when a file there differs from what the code sends now (CI runs it)
 *
 * A repository method is called with example arguments (scripts/sql-examples.ts) on a database that
 * records each statement and answers no rows: what it sends when it finds nothing. A method without an
 * example fails the run, so every query is in the files.
 */
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { format } from 'sql-formatter';
import ts from 'typescript';
import type { Database, Queryable } from '../src/db/client.js';
import { Generations } from '../src/db/write-scope.js';
import { projectRoot } from '../src/paths.js';
import { REPOSITORIES, argumentsFor } from './sql-examples.js';

const OUT_DIR = path.join(projectRoot, 'src/queries');
const HEADER = '-- NOTE: This file is written by `npm run sql` from the code; do not edit it.\n';

/** A database that records what it is sent and answers nothing. */
function recorder(): { db: Database; sent: string[] } {
  const sent: string[] = [];
  const db: Queryable & Record<string, unknown> = {
    kind: 'postgres',
    writes: new Generations(),
    async query<T>(sql: string): Promise<T[]> {
      sent.push(sql);
      return [];
    },
    async queryText(sql: string) {
      sent.push(sql);
      return undefined;
    },
    async exec(sql: string) {
      sent.push(sql);
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      return fn(db);
    },
    async close() {},
  };
  return { db: db as unknown as Database, sent };
}

const pretty = (sql: string) => format(sql, { language: 'postgresql', keywordCase: 'upper', tabWidth: 2 }).trim();

/** What each repository method sends, as one file's text. */
async function repositoryFile(name: string, repository: Record<string, unknown>): Promise<string> {
  const parts = [HEADER];
  for (const [method, fn] of Object.entries(repository).sort(([a], [b]) => a.localeCompare(b))) {
    if (typeof fn !== 'function') continue;
    const { db, sent } = recorder();
    const args = argumentsFor(name, method, fn as (...a: unknown[]) => unknown);
    try {
      const result = await (fn as (...a: unknown[]) => unknown).call(repository, db, ...args);
      // A method that only builds its statement (the list's, for tests) returns it.
      const built = result as { sql?: unknown } | undefined;
      if (sent.length === 0 && typeof built?.sql === 'string') sent.push(built.sql);
    } catch {
      // No rows: a method that needs one stops after its first statement, which is recorded.
    }
    if (sent.length === 0) throw new Error(`${name}.${method} sent no statement with its example arguments (scripts/sql-examples.ts)`);
    parts.push(`-- ${name}.${method}\n${sent.map((s) => `${pretty(s)};`).join('\n\n')}\n`);
  }
  return parts.join('\n');
}

/** A statement's text as written: a template's substitutions stay `${…}`. */
function statementText(node: ts.Expression, file: ts.SourceFile): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) {
    return node.head.text + node.templateSpans.map((span) => `\${${span.expression.getText(file)}}${span.literal.text}`).join('');
  }
  return undefined;
}

/** The function or method a node is in, for the file's headings. */
function ownerOf(node: ts.Node, file: ts.SourceFile): string {
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
    if ((ts.isFunctionDeclaration(at) || ts.isMethodDeclaration(at) || ts.isPropertyAssignment(at) || ts.isVariableDeclaration(at)) && at.name) {
      return at.name.getText(file);
    }
  }
  return '(module)';
}

async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sourceFiles(full)));
    else if (/\.tsx?$/.test(entry.name)) out.push(full);
  }
  return out.sort();
}

/** Every string or template literal handed to query, queryText or exec in src/. */
async function handWrittenFile(): Promise<string> {
  const parts = [HEADER];
  for (const file of await sourceFiles(path.join(projectRoot, 'src'))) {
    const source = ts.createSourceFile(file, await readFile(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const found: string[] = [];
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && ['query', 'queryText', 'exec'].includes(node.expression.name.text)) {
        const first = node.arguments[0];
        const text = first && statementText(first, source);
        if (text !== undefined && /^\s*(\/\*.*?\*\/\s*)?[A-Za-z]/.test(text))
          found.push(`-- ${ownerOf(node, source)}\n${text.trim().replace(/\n\s+/g, '\n  ')};\n`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    if (found.length > 0) parts.push(`-- ${path.relative(projectRoot, file)}\n\n${found.join('\n')}`);
  }
  return parts.join('\n');
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const files = new Map<string, string>();
  for (const [name, repository] of Object.entries(REPOSITORIES)) files.set(`${name}.sql`, await repositoryFile(name, repository));
  files.set('hand-written.sql', await handWrittenFile());
  if (check) {
    const stale: string[] = [];
    const present = new Set((await readdir(OUT_DIR).catch(() => [] as string[])).filter((f) => f.endsWith('.sql')));
    for (const [file, text] of files) {
      if ((await readFile(path.join(OUT_DIR, file), 'utf8').catch(() => undefined)) !== text) stale.push(file);
      present.delete(file);
    }
    stale.push(...present);
    if (stale.length > 0) {
      console.error(`src/queries is stale (run npm run sql and commit): ${stale.join(', ')}`);
      process.exit(1);
    }
    return;
  }
  await rm(OUT_DIR, { recursive: true, force: true });
  await mkdir(OUT_DIR, { recursive: true });
  for (const [file, text] of files) await writeFile(path.join(OUT_DIR, file), text);
  console.log(`wrote ${files.size} files to ${path.relative(projectRoot, OUT_DIR)}/`);
}

await main();
