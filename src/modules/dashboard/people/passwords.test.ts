import { describe, expect, it } from 'vitest';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.js';

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
});
