import { describe, expect, it } from 'vitest';
import { builtInSkills } from './builtins';
import { parseSkillMarkdown, SkillFileError } from './skillMarkdown';

describe('slash skills as Markdown', () => {
  it('loads every built-in: the Pick skills, /clear, /help and an instruction skill', () => {
    const skills = builtInSkills();
    expect(skills.map((s) => s.name)).toEqual(['/agent', '/model', '/harness', '/clear', '/help', '/summarize']);
    expect(skills[0]!.skill?.action).toEqual({ kind: 'Pick', query: 'namespace:Agent nodeType:Agent sort:order', field: 'agentName', title: 'Choose an agent' });
    expect(skills[3]!.skill?.action).toEqual({ kind: 'NewThread' });
    expect(skills[5]!.skill?.instructions).toContain('exactly three bullet points');
    expect(skills[5]!.skill?.autoMount).toBe(true);
  });

  it.each([
    ['no frontmatter', 'just text', 'missing YAML frontmatter'],
    ['bad YAML', '---\nname: [unclosed\n---\n', 'not valid YAML'],
    ['no slash', '---\nname: agent\ndescription: x\n---\nbody', 'name: must be a slash'],
    ['no description', '---\nname: /x\n---\nbody', 'description:'],
    ['bad action kind', '---\nname: /x\ndescription: d\naction: { kind: Fly }\n---\n', 'action.kind'],
    ['Pick without field', '---\nname: /x\ndescription: d\naction: { kind: Pick, query: "nodeType:Agent", title: T }\n---\n', 'action.field'],
    ['neither action nor body', '---\nname: /x\ndescription: d\n---\n', 'needs an action'],
  ])('refuses a file with %s, naming the file', (_, text, message) => {
    expect(() => parseSkillMarkdown('skills/x.md', text, 'Skill')).toThrow(SkillFileError);
    expect(() => parseSkillMarkdown('skills/x.md', text, 'Skill')).toThrow(new RegExp(`^skills/x\\.md: .*${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  it('places a user skill in the user namespace as private', () => {
    const node = parseSkillMarkdown('mine.md', '---\nname: /mine\ndescription: Mine\n---\nDo it my way.', 'alice/Skill', 'alice');
    expect(node).toMatchObject({ path: 'alice/Skill/mine', namespace: 'alice/Skill', id: 'mine', owner: 'alice' });
  });
});
