import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../capability';
import { textResult } from '../results';
import { createEventLog } from '../eventLog';
import { invoke } from '../invoke';
import { createRegistry } from '../registry';
import { createFileProbe } from './filePostconditions';

let root: string;
let outside: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'chatsurface-files-'));
  outside = mkdtempSync(join(tmpdir(), 'chatsurface-outside-'));
  for (const path of ['reports/2024/q1.csv', 'reports/2024/q2.csv', 'reports/readme.md', 'node_modules/pkg/x.csv', 'top.csv']) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), 'x');
  }
  writeFileSync(join(outside, 'secret.csv'), 'x');
  symlinkSync(outside, join(root, 'reports', 'linked'));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('createFileProbe', () => {
  it('lists the files a glob matches under the app root, with their modification times', async () => {
    const listing = await createFileProbe({ appRoot: root }).listFiles('reports/**/*.csv');
    expect(Object.keys(listing).sort()).toEqual(['reports/2024/q1.csv', 'reports/2024/q2.csv']);
    for (const mtime of Object.values(listing)) expect(mtime).toBeGreaterThan(0);
  });

  it('skips node_modules, does not follow links out of the root, and takes a plain path', async () => {
    const probe = createFileProbe({ appRoot: root });
    expect(Object.keys(await probe.listFiles('**/*.csv')).sort()).toEqual(['reports/2024/q1.csv', 'reports/2024/q2.csv', 'top.csv']);
    expect(Object.keys(await probe.listFiles('top.csv'))).toEqual(['top.csv']);
    expect(await probe.listFiles('missing/*.csv')).toEqual({});
    expect(await probe.listFiles('missing.csv')).toEqual({});
  });

  it('refuses a glob that leaves the root, and an app root that is not absolute', async () => {
    await expect(createFileProbe({ appRoot: root }).listFiles('../*')).rejects.toThrow('the glob "../*" leaves the app root');
    expect(() => createFileProbe({ appRoot: 'here' })).toThrow('createFileProbe: appRoot must be an absolute path (got "here").');
  });

  it('gives up with a clear error past maxFiles', async () => {
    await expect(createFileProbe({ appRoot: root, maxFiles: 2 }).listFiles('**/*')).rejects.toThrow(/more than 2 files under .*; narrow the glob/);
  });

  it('checks file_created for an in-process capability when the host passes it as a probe', async () => {
    const exporter = defineCapability({
      name: 'reports.export', title: 'Export report', description: 'Writes a report file.', kind: 'mutate',
      input: z.object({ name: z.string(), write: z.boolean() }),
      expected_effect: [{ type: 'file_created', glob: 'exports/{{name}}.csv' }],
      handler: ({ name, write }) => {
        mkdirSync(join(root, 'exports'), { recursive: true });
        if (write) writeFileSync(join(root, 'exports', `${name}.csv`), 'a,b\n');
        return textResult('Exported.');
      },
    });
    const registry = createRegistry([exporter]);
    const probes = createFileProbe({ appRoot: root });
    const wrote = createEventLog();
    await invoke('reports.export', { name: 'march', write: true }, { registry, emit: wrote.emit, threadKey: 't1', probes });
    expect(wrote.since().map((e) => e.type)).toEqual(['capability.started', 'capability.done', 'capability.checked']);
    expect(wrote.since().at(-1)).toMatchObject({ checks: [{ postcondition: 'file_created', text: expect.stringMatching(/^1 new file in /) }] });
    const skipped = createEventLog();
    await invoke('reports.export', { name: 'april', write: false }, { registry, emit: skipped.emit, threadKey: 't1', probes });
    expect(skipped.since().at(-1)).toMatchObject({
      type: 'capability.quality_violation',
      postcondition: 'file_created',
      expected: '1 new file matching exports/april.csv',
      actual: '0 new',
      message: 'Export report should have created at least 1 file matching exports/april.csv, but it created 0.',
    });
  });
});
