import { describe, expect, it } from 'vitest';
import { createEventLog } from '../eventLog';
import { foldAll, initialThreadState } from '../fold';
import { invoke } from '../invoke';
import { createRegistry } from '../registry';
import { defineSkillCapability } from './skill';
import { parseSkillMd, SkillFormatError } from '../skillMd';

const body = `# Release notes\n\nWrite release notes from merged pull requests.\n${'- Group changes by area; keep each line short.\n'.repeat(400)}`;
const text = `---\nname: release-notes\ndescription: Writes release notes from merged pull requests. Use when asked for a changelog or release notes.\n---\n${body}`;

describe('defineSkillCapability', () => {
  it('is one read capability named and described by the frontmatter, holding the whole body', () => {
    const notes = defineSkillCapability(text, { file: 'skills/release-notes/SKILL.md' });
    expect(notes).toMatchObject({
      name: 'release-notes',
      title: 'Release notes',
      description: 'Writes release notes from merged pull requests. Use when asked for a changelog or release notes.',
      kind: 'read',
      annotations: { readOnlyHint: true },
      source: { type: 'skill', name: 'release-notes', file: 'skills/release-notes/SKILL.md' },
    });
    const registry = createRegistry([notes]);
    const source = registry.get('release-notes')!.source;
    expect(source.type === 'skill' && source.body).toBe(body);
    expect(body.length).toBeGreaterThan(18_000);
    expect(registry.describe()[0]!.inputSchema).toMatchObject({ type: 'object', properties: {} });
  });

  it('takes a parsed skill, a title from metadata.title, or one the host gives', () => {
    const parsed = parseSkillMd(`---\nname: pdf\ndescription: PDFs.\nmetadata:\n  title: PDF toolkit\n---\nbody`);
    if (!parsed.ok) throw new Error('expected a valid skill');
    expect(defineSkillCapability(parsed.skill).title).toBe('PDF toolkit');
    expect(defineSkillCapability(parsed.skill, { title: 'PDFs' }).title).toBe('PDFs');
  });

  it('throws a SkillFormatError that names the file, the field and the rule', () => {
    const bad = `---\nname: Release Notes\n---\nbody`;
    let error: unknown;
    try {
      defineSkillCapability(bad, { file: 'skills/release-notes/SKILL.md' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SkillFormatError);
    expect((error as SkillFormatError).message).toBe(
      [
        'skills/release-notes/SKILL.md has 2 problems:',
        '- skills/release-notes/SKILL.md: name: must use lowercase letters, digits and single hyphens, not start or end with a hyphen (got "Release Notes")',
        '- skills/release-notes/SKILL.md: description: is required',
      ].join('\n'),
    );
    expect((error as SkillFormatError).problems.map((p) => p.field)).toEqual(['name', 'description']);
  });
});

describe('invoking a skill', () => {
  it('emits skill.activated, marks it active in the fold and returns a short acknowledgement, never the body', async () => {
    const registry = createRegistry([defineSkillCapability(text)]);
    const log = createEventLog();
    const result = await invoke('release-notes', {}, { registry, emit: log.emit, threadKey: 't1', invocationId: 'inv1' });
    expect(log.since().map((e) => e.type)).toEqual(['capability.started', 'skill.activated', 'capability.done']);
    expect(log.since()[1]).toMatchObject({ skill: 'release-notes', title: 'Release notes', invocation_id: 'inv1' });
    expect(result).toEqual({
      content: [{ type: 'text', text: `The "Release notes" skill is active: its instructions are now part of the assistant's context.` }],
      structuredContent: { skill: 'release-notes', active: true },
    });
    expect(JSON.stringify(result)).not.toContain('Group changes by area');

    await invoke('release-notes', {}, { registry, emit: log.emit, threadKey: 't1' });
    const state = foldAll(initialThreadState, log.since());
    expect(state.activeSkills).toEqual(['release-notes']);
    expect(state.rows.filter((r) => r.kind === 'invocation').map((r) => r.kind === 'invocation' && r.state)).toEqual(['done', 'done']);
  });
});

describe('the reference crawl-fetch-ingest skill', () => {
  it('loads as a capability whose body is the whole file after the frontmatter', async () => {
    const { readFileSync } = await import('node:fs');
    const file = 'reference/skills/crawl-fetch-ingest/SKILL.md';
    const text = readFileSync(file, 'utf8');
    const skill = defineSkillCapability(text, { file });
    expect(skill).toMatchObject({ name: 'crawl-fetch-ingest', title: 'Crawl fetch ingest', source: { frontmatter: { license: 'Proprietary', metadata: { version: '1.0' } } } });
    expect(text.endsWith(skill.source.body)).toBe(true);
    expect(skill.source.body.startsWith('# Crawl, fetch, ingest')).toBe(true);
  });
});
