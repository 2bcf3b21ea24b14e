import { describe, expect, it } from 'vitest';
import { ARGON2_RUNNING_MAX, argon2Load, hashPassword, passwordProblem, verifyPassword } from './passwords.js';

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
});
