// The generators' CSS behind the sizing fixtures (e2e/sizing.spec.ts), pinned in templates.json.
//   node e2e/pages/sizing/templates.mjs            compares each checked-in file with the pinned
//                                                  package's own (npm pack: the npm cache, else the registry)
//                                                  and says whether a newer generator is out
//   node e2e/pages/sizing/templates.mjs --latest   takes the newest published generators: copies
//                                                  their files in and rewrites templates.json
// Exits non-zero when a checked-in file differs from its package's. The Playwright spec checks the
// files against the sha256 in templates.json offline; this script checks them against the registry.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const pinsFile = join(here, 'templates.json');
const pins = JSON.parse(readFileSync(pinsFile, 'utf8'));
const latest = process.argv.includes('--latest');
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
const npm = (...args) => execFileSync('npm', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();

let differ = 0;
for (const [name, pin] of Object.entries(pins)) {
  const newest = npm('view', name, 'version');
  const version = latest ? newest : pin.version;
  const work = mkdtempSync(join(tmpdir(), 'sizing-templates-'));
  try {
    const tarball = npm('pack', `${name}@${version}`, '--silent', '--pack-destination', work).split('\n').pop();
    execFileSync('tar', ['xzf', join(work, tarball), '-C', work]);
    for (const [file, entry] of Object.entries(pin.files)) {
      const generated = readFileSync(join(work, 'package', entry.from));
      if (latest) {
        writeFileSync(join(here, file), generated);
        entry.sha256 = sha256(generated);
        continue;
      }
      const same = Buffer.compare(generated, readFileSync(join(here, file))) === 0 && sha256(generated) === entry.sha256;
      if (!same) differ++;
      console.log(`${same ? 'same' : 'DIFFERS'}  ${file}  (${name}@${version} ${entry.from})`);
    }
    if (latest) pin.version = version;
    else if (newest !== version) console.log(`note: ${name}@${newest} is out (pinned ${version}); run with --latest to take it`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
if (latest) {
  writeFileSync(pinsFile, `${JSON.stringify(pins, null, 2)}\n`);
  console.log('templates.json rewritten; update the versions in README.md beside it, then run e2e/sizing.spec.ts');
}
process.exit(differ ? 1 : 0);
