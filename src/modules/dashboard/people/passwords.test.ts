import { describe, expect, it } from 'vitest';
import { ARGON2_RUNNING_MAX, SIGN_INS_RUNNING_MAX, argon2Load, hashPassword, inSignInSlot, passwordProblem, verifyPassword } from './passwords.js';

describe('dashboard passwords', () => {
  it('refuses short, long, common (also with digits or symbols added), repetitive and e-mail-like passwords', () => {
    expect(passwordProblem('short', 'a@b.example')).toContain('at least 12');
    expect(passwordProblem('x'.repeat(201), 'a@b.example')).toContain('at most 200');
    for (const common of ['qwerty123456', 'Password2024!', 'iloveyou1234', 'aaaaaaaaaaaaaa', 'abababababab']) {
      expect(passwordProblem(common, 'a@b.example'), common).toContain('too common');
    }
    expect(passwordProblem('margaret.hamilton-1936', 'margaret.hamilton@nasa.example')).toContain('e-mail');
    expect(passwordProblem('violet harbour lantern 42', 'a@b.example')).toBeNull();
  });

  it('hashes with Argon2id and verifies; no stored hash and a wrong password are both false', async () => {
    const stored = await hashPassword('violet harbour lantern 42');
    expect(stored).toMatch(/^\$argon2id\$v=19\$/);
    expect(await verifyPassword(stored, 'violet harbour lantern 42')).toBe(true);
    expect(await verifyPassword(stored, 'violet harbour lantern 43')).toBe(false);
    expect(await verifyPassword(null, 'violet harbour lantern 42')).toBe(false);
    expect(await verifyPassword('not a hash', 'x')).toBe(false);
  });

  it('runs at most ARGON2_RUNNING_MAX hashes at once, the others waiting their turn, and answers each rightly', async () => {
    const stored = await hashPassword('violet harbour lantern 42');
    expect(ARGON2_RUNNING_MAX).toBeGreaterThanOrEqual(1);
    const guesses = Array.from({ length: 8 }, (_, i) => (i % 2 ? 'violet harbour lantern 42' : `wrong guess number ${i}`));
    const answers = Promise.all(guesses.map((g) => verifyPassword(stored, g)));
    expect(argon2Load()).toEqual({ running: ARGON2_RUNNING_MAX, waiting: 8 - ARGON2_RUNNING_MAX });
    expect(await answers).toEqual(guesses.map((_, i) => i % 2 === 1));
    expect(argon2Load()).toEqual({ running: 0, waiting: 0 });
  });

  it('lets at most SIGN_INS_RUNNING_MAX sign-ins run at once (one more than the hashes), the others in order of arrival', async () => {
    expect(SIGN_INS_RUNNING_MAX).toBe(ARGON2_RUNNING_MAX + 1);
    let now = 0;
    let most = 0;
    const started: number[] = [];
    const releases: Array<() => void> = [];
    const jobs = Array.from({ length: 6 }, (_, i) =>
      inSignInSlot(async () => {
        started.push(i);
        now++;
        most = Math.max(most, now);
        await new Promise<void>((resolve) => releases.push(resolve));
        now--;
        return i;
      }),
    );
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual(Array.from({ length: SIGN_INS_RUNNING_MAX }, (_, i) => i));
    while (releases.length > 0 || started.length < 6) {
      releases.shift()?.();
      await new Promise((r) => setImmediate(r));
    }
    expect(await Promise.all(jobs)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(most).toBe(SIGN_INS_RUNNING_MAX);
  });
});
