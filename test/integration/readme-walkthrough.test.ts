import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASE } from '../helpers/database.js';
import { ROOT, type ServerChild, type ServerProcesses, serverProcesses } from '../helpers/processes.js';
import { curlRequest, differences, jqPath, parseExpected, splitCommands, words } from '../helpers/shell-walkthrough.js';

/** The first shell block of the README section with this title. */
async function readmeBlock(title: string): Promise<string> {
  const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`README has no section "${title}"`);
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const block = /```sh\n([\s\S]*?)\n```/.exec(section);
  if (!block) throw new Error(`"${title}" has no sh block`);
  return block[1]!;
}

/**
 * README "Your first project in ten commands", run as written against a real server process on a
 * fresh database (the operator token the README starts the server with): every command must answer
 * the status and the fields its `# =>` line shows, and every command must show one.
 */
describe(`README walk-through on ${TEST_DATABASE}`, () => {
  let servers: ServerProcesses;
  let server: ServerChild;

  beforeAll(async () => {
    servers = await serverProcesses('pps-readme-', { ADMIN_TOKEN: 'change-me-operator-token', PUBLIC_URL: 'http://localhost:3000' });
    server = await servers.start({ ready: true });
  }, 120_000);
  afterAll(async () => servers?.close());

  it('every command answers what the README shows', async () => {
    const commands = splitCommands(await readmeBlock('Your first project in ten commands'));
    expect(commands.length).toBeGreaterThanOrEqual(20);
    const env: Record<string, string> = {};
    // Every difference of every command, so one run shows them all (the commands after one that differs still run).
    const problems: string[] = [];
    for (const command of commands) {
      const assignment = /^([A-Z_][A-Z0-9_]*)=\$\(([\s\S]*)\)$/.exec(command.text);
      const pipeline = words(assignment ? assignment[2]! : command.text, env);
      const [curl, jq, ...rest] = pipeline;
      const request = await curlRequest(curl!, server.url, ROOT);
      const res = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body ?? null });
      const text = await res.text();
      const answer = text === '' ? undefined : JSON.parse(text);
      const [, status, body] = /^(\d{3}) ([\s\S]*)$/.exec(command.expected ?? '') ?? [];
      if (status === undefined) problems.push(`no "# => <status> <answer>" line after:\n${command.text}`);
      else {
        const found = [...(res.status === Number(status) ? [] : [`status ${res.status}, expected ${status}`]), ...differences(answer, parseExpected(body!))];
        if (found.length > 0) problems.push(`${command.text}\nanswered ${res.status} ${text}\n  ${found.join('\n  ')}`);
      }
      if (assignment) {
        expect(jq?.slice(0, 2), `${command.text}: $(…) must end in | jq -r <path>`).toEqual(['jq', '-r']);
        expect(rest).toEqual([]);
        const value = jqPath(answer, jq![2]!);
        expect(typeof value, `${command.text}\nanswered ${res.status} ${text}\n${jq![2]} is not a string`).toBe('string');
        env[assignment[1]!] = value as string;
      } else expect(jq, `${command.text}: only $(…) pipes into jq`).toBeUndefined();
    }
    expect(problems.join('\n\n')).toBe('');
  }, 240_000);
});
