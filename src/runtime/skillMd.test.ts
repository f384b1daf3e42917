import { describe, expect, it } from 'vitest';
import { parseSkillMd } from './skillMd';

const FILE = 'skills/pdf-tools/SKILL.md';
const BODY = '# PDF tools\n\nUse pdftotext first.\n\n## Steps\n1. Extract.\n2. Summarise.\n';

const skill = (frontmatter: string, body = BODY) => `---\n${frontmatter}\n---\n${body}`;

/** The problems of a file, as `field: rule` lines. */
function problems(text: string, file = FILE): string[] {
  const parsed = parseSkillMd(text, file);
  if (parsed.ok) throw new Error('expected the file to be refused');
  for (const p of parsed.problems) expect(p.message).toBe(`${file}: ${p.field}: ${p.rule}`);
  return parsed.problems.map((p) => `${p.field}: ${p.rule}`);
}

describe('parseSkillMd: a valid file', () => {
  it('reads every allowed field and keeps the body exactly as written', () => {
    const text = skill(
      [
        'name: pdf-tools',
        'description: Extracts text and tables from PDF files. Use when the user mentions PDFs or forms.',
        'license: Apache-2.0',
        'compatibility: Needs poppler-utils installed',
        'metadata:',
        '  author: acme',
        '  version: "1.0"',
        'allowed-tools: Bash(pdftotext:*) Read',
      ].join('\n'),
    );
    const parsed = parseSkillMd(text, FILE);
    expect(parsed).toEqual({
      ok: true,
      skill: {
        name: 'pdf-tools',
        description: 'Extracts text and tables from PDF files. Use when the user mentions PDFs or forms.',
        frontmatter: {
          name: 'pdf-tools',
          description: 'Extracts text and tables from PDF files. Use when the user mentions PDFs or forms.',
          license: 'Apache-2.0',
          compatibility: 'Needs poppler-utils installed',
          metadata: { author: 'acme', version: '1.0' },
          'allowed-tools': 'Bash(pdftotext:*) Read',
        },
        body: BODY,
        file: FILE,
      },
    });
  });

  it('keeps a long body whole, CRLF line ends and a byte-order mark included', () => {
    const body = Array.from({ length: 3000 }, (_, i) => `Line ${i} of the instructions.`).join('\r\n');
    const parsed = parseSkillMd(`\uFEFF---\r\nname: pdf-tools\r\ndescription: Works with PDFs.\r\n---\r\n${body}`, FILE);
    expect(parsed.ok && parsed.skill.body).toBe(body);
  });

  it('accepts the longest allowed name and description', () => {
    const name = `a${'-b'.repeat(31)}c`.slice(0, 64);
    expect(name).toHaveLength(64);
    const parsed = parseSkillMd(skill(`name: ${name}\ndescription: ${'d'.repeat(1024)}`), `skills/${name}/SKILL.md`);
    expect(parsed.ok).toBe(true);
  });

  it('does not check the folder when the file is not laid out as <folder>/SKILL.md', () => {
    expect(parseSkillMd(skill('name: anything\ndescription: Fine.'), 'inline skill').ok).toBe(true);
  });
});

describe('parseSkillMd: each kind of frontmatter error names the file, the field and the rule', () => {
  it('no frontmatter at all', () => {
    expect(problems('# Just markdown\n')).toEqual([
      'frontmatter: the file must start with a "---" line, then YAML frontmatter, then a closing "---" line',
    ]);
  });

  it('frontmatter that is never closed', () => {
    expect(problems('---\nname: pdf-tools\ndescription: x\n# body')).toEqual(['frontmatter: the frontmatter is not closed: add a "---" line after it']);
  });

  it('YAML that does not parse', () => {
    const [problem] = problems(skill('name: pdf-tools\ndescription: [unclosed'));
    expect(problem).toMatch(/^frontmatter: must be valid YAML \(.+\)$/);
  });

  it('a duplicated key', () => {
    expect(problems(skill('name: pdf-tools\nname: pdf-tools\ndescription: x'))[0]).toMatch(/^frontmatter: must be valid YAML \(.*[Uu]nique/);
  });

  it('frontmatter that is not a mapping, or empty', () => {
    expect(problems(skill('- name\n- description'))).toEqual(['frontmatter: must be a YAML mapping of fields (name: …, description: …)']);
    expect(problems('---\n---\nbody')).toEqual(['frontmatter: must be a YAML mapping of fields (name: …, description: …)']);
  });

  it('missing name and description', () => {
    expect(problems(skill('license: MIT'))).toEqual(['name: is required', 'description: is required']);
  });

  it('a name that is not a string', () => {
    expect(problems(skill('name: 42\ndescription: x'))).toEqual(['name: must be a string']);
  });

  it('an empty or too long name', () => {
    expect(problems(skill('name: ""\ndescription: x'))).toEqual(['name: must be 1–64 characters (it has 0)']);
    const long = 'a'.repeat(65);
    expect(problems(skill(`name: ${long}\ndescription: x`), `skills/${long}/SKILL.md`)).toEqual(['name: must be 1–64 characters (it has 65)']);
  });

  it.each([['PDF-Tools'], ['-pdf'], ['pdf-'], ['pdf--tools'], ['pdf_tools'], ['pdf tools'], ['pdf.tools'], ['pdé']])(
    'a name breaking the character rules: %s',
    (name) => {
      expect(problems(skill(`name: "${name}"\ndescription: x`))).toEqual([
        `name: must use lowercase letters, digits and single hyphens, not start or end with a hyphen (got "${name}")`,
      ]);
    },
  );

  it("a name that differs from the skill's folder", () => {
    expect(problems(skill('name: pdf-reader\ndescription: x'))).toEqual(['name: must match the skill\'s folder name "pdf-tools" (got "pdf-reader")']);
  });

  it('an empty, blank, non-string or too long description', () => {
    expect(problems(skill('name: pdf-tools\ndescription: ""'))).toEqual(['description: must not be empty: say what the skill does and when to use it']);
    expect(problems(skill('name: pdf-tools\ndescription: "   "'))).toEqual(['description: must not be empty: say what the skill does and when to use it']);
    expect(problems(skill('name: pdf-tools\ndescription: [a, b]'))).toEqual(['description: must be a string']);
    expect(problems(skill(`name: pdf-tools\ndescription: ${'d'.repeat(1025)}`))).toEqual(['description: must be at most 1024 characters (it has 1025)']);
  });

  it('a bad license, compatibility, metadata or allowed-tools', () => {
    expect(problems(skill('name: pdf-tools\ndescription: x\nlicense: 3'))).toEqual(['license: must be a non-empty string']);
    expect(problems(skill(`name: pdf-tools\ndescription: x\ncompatibility: ${'c'.repeat(501)}`))).toEqual(['compatibility: must be 1–500 characters (it has 501)']);
    expect(problems(skill('name: pdf-tools\ndescription: x\ncompatibility: ""'))).toEqual(['compatibility: must be 1–500 characters (it has 0)']);
    expect(problems(skill('name: pdf-tools\ndescription: x\nmetadata: [a]'))).toEqual(['metadata: must be a mapping of string keys to string values']);
    expect(problems(skill('name: pdf-tools\ndescription: x\nmetadata:\n  version: 1.0'))).toEqual(['metadata.version: must be a string (quote it: version: "1.0")']);
    expect(problems(skill('name: pdf-tools\ndescription: x\nallowed-tools: [Read, Write]'))).toEqual([
      'allowed-tools: must be one space-separated string, e.g. "Bash(git:*) Read"',
    ]);
  });

  it('a field the specification does not allow', () => {
    expect(problems(skill('name: pdf-tools\ndescription: x\nversion: 2\ntags: [pdf]'))).toEqual([
      'version: is not a SKILL.md field (allowed: name, description, license, compatibility, metadata, allowed-tools)',
      'tags: is not a SKILL.md field (allowed: name, description, license, compatibility, metadata, allowed-tools)',
    ]);
  });

  it('reports every problem of a file at once', () => {
    expect(problems(skill('name: Bad_Name\nextra: 1'))).toHaveLength(3);
  });
});
