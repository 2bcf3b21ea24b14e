// Usage: node scripts/lock-platform-packages.cjs package-lock.json (after any npm install that rewrites the lock).
// Adds lock entries for rollup's per-platform optional packages the registry mirror does not carry,
// so `npm ci` accepts the lockfile; npm skips them on install because their os/cpu do not match.
const fs = require('node:fs');
const file = process.argv[2];
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const rollup = lock.packages['node_modules/rollup'];
const platform = (name) => {
  const p = name.replace('@rollup/rollup-', '');
  const [os0, cpu0, abi] = p.split('-');
  const os = { android: 'android', darwin: 'darwin', freebsd: 'freebsd', linux: 'linux', openbsd: 'openbsd', openharmony: 'openharmony', win32: 'win32' }[os0];
  const cpu = { arm: 'arm', arm64: 'arm64', x64: 'x64', ia32: 'ia32', loong64: 'loong64', ppc64: 'ppc64', riscv64: 'riscv64', s390x: 's390x' }[cpu0];
  // Keys in the order npm writes them, so a later `npm install` leaves the file as it is.
  const entry = { version: rollup.optionalDependencies[name], cpu: [cpu], dev: true };
  if (os === 'linux') entry.libc = [abi?.startsWith('musl') ? 'musl' : 'glibc'];
  Object.assign(entry, { license: 'MIT', optional: true, os: [os] });
  return entry;
};
let added = 0;
for (const name of Object.keys(rollup.optionalDependencies ?? {})) {
  const key = `node_modules/${name}`;
  if (!lock.packages[key]) {
    lock.packages[key] = platform(name);
    added++;
  }
}
const sorted = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
lock.packages = sorted;
fs.writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
console.log('added', added);
