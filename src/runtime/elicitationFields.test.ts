import { describe, expect, it } from 'vitest';
import { checkContent, fieldsOf, initialValues, readForm } from './elicitationFields';

/** server-everything 2026.8.31's `trigger-elicitation-request` form, trimmed to one field of each shape. */
const everything = {
  type: 'object',
  properties: {
    name: { title: 'String', type: 'string', description: 'Your full, legal name' },
    check: { title: 'Boolean', type: 'boolean' },
    email: { title: 'String with email format', type: 'string', format: 'email' },
    birthdate: { title: 'String with date format', type: 'string', format: 'date' },
    integer: { title: 'Integer', type: 'integer', minimum: 1, maximum: 100, default: 42 },
    untitledSingleSelectEnum: { type: 'string', title: 'Untitled Single Select Enum', enum: ['Monica', 'Rachel'], default: 'Monica' },
    untitledMultipleSelectEnum: { type: 'array', title: 'Untitled Multiple Select Enum', minItems: 1, maxItems: 2, items: { type: 'string', enum: ['Guitar', 'Piano', 'Violin'] }, default: ['Guitar'] },
    titledSingleSelectEnum: { type: 'string', title: 'Titled Single Select Enum', oneOf: [{ const: 'hero-1', title: 'Superman' }, { const: 'hero-2', title: 'Green Lantern' }] },
    titledMultipleSelectEnum: { type: 'array', title: 'Titled Multiple Select Enum', items: { anyOf: [{ const: 'fish-1', title: 'Tuna' }, { const: 'fish-2', title: 'Salmon' }] } },
    legacyTitledEnum: { type: 'string', title: 'Legacy Titled Single Select Enum', enum: ['pet-1', 'pet-2'], enumNames: ['Cats', 'Dogs'] },
    nested: { type: 'object', properties: {} },
  },
  required: ['name'],
};

describe('fieldsOf', () => {
  it('reads every kind of field MCP forms have, with titles, defaults and choices in words; names what it cannot show', () => {
    const { fields, unsupported } = fieldsOf(everything);
    expect(fields.map((f) => [f.key, f.type, f.required])).toEqual([
      ['name', 'text', true],
      ['check', 'boolean', false],
      ['email', 'text', false],
      ['birthdate', 'text', false],
      ['integer', 'number', false],
      ['untitledSingleSelectEnum', 'choice', false],
      ['untitledMultipleSelectEnum', 'multi', false],
      ['titledSingleSelectEnum', 'choice', false],
      ['titledMultipleSelectEnum', 'multi', false],
      ['legacyTitledEnum', 'choice', false],
    ]);
    expect(unsupported).toEqual(['nested']);
    expect(fields[4]).toMatchObject({ label: 'Integer', integer: true, minimum: 1, maximum: 100, default: 42 });
    expect(fields[7]).toMatchObject({ options: [{ value: 'hero-1', label: 'Superman' }, { value: 'hero-2', label: 'Green Lantern' }] });
    expect(fields[8]).toMatchObject({ options: [{ value: 'fish-1', label: 'Tuna' }, { value: 'fish-2', label: 'Salmon' }] });
    expect(fields[9]).toMatchObject({ options: [{ value: 'pet-1', label: 'Cats' }, { value: 'pet-2', label: 'Dogs' }] });
    expect(initialValues(fields)).toMatchObject({ name: '', check: false, integer: '42', untitledSingleSelectEnum: 'Monica', untitledMultipleSelectEnum: ['Guitar'] });
  });

  it('reads nothing from something that is not a schema', () => {
    expect(fieldsOf(undefined)).toEqual({ fields: [], unsupported: [] });
    expect(fieldsOf({ properties: 'x' })).toEqual({ fields: [], unsupported: [] });
  });
});

describe('checkContent and readForm', () => {
  const { fields } = fieldsOf(everything);

  it('takes an answer that fits', () => {
    expect(checkContent(fields, { name: 'Ada', check: true, integer: 7, untitledMultipleSelectEnum: ['Piano'], legacyTitledEnum: 'pet-2', birthdate: '1815-12-10' })).toEqual([]);
  });

  it('says in words what does not fit, field by field', () => {
    expect(
      checkContent(fields, {
        integer: 500,
        email: 'ada',
        birthdate: 'yesterday',
        untitledSingleSelectEnum: 'Joey',
        untitledMultipleSelectEnum: ['Guitar', 'Piano', 'Violin'],
        check: 'yes',
        shoeSize: 44,
      }),
    ).toEqual([
      { key: 'shoeSize', message: 'The form has no field "shoeSize".' },
      { key: 'name', message: 'String is required.' },
      { key: 'check', message: 'Boolean must be yes or no.' },
      { key: 'email', message: 'String with email format must be an email address, such as name@example.com.' },
      { key: 'birthdate', message: 'String with date format must be a date, such as 2026-03-14.' },
      { key: 'integer', message: 'Integer must be at most 100.' },
      { key: 'untitledSingleSelectEnum', message: 'Untitled Single Select Enum must be one of: Monica, Rachel.' },
      { key: 'untitledMultipleSelectEnum', message: 'Choose at most 2 for Untitled Multiple Select Enum.' },
    ]);
    expect(checkContent(fields, { name: 'Ada', integer: 2.5 })).toEqual([{ key: 'integer', message: 'Integer must be a whole number.' }]);
  });

  it('reads a form: numbers parsed, empty boxes left out, a number that is not one said in words', () => {
    expect(readForm(fields, { name: 'Ada', check: true, integer: ' 12 ', email: '', untitledMultipleSelectEnum: [] })).toEqual({ content: { name: 'Ada', check: true, integer: 12 }, issues: [] });
    expect(readForm(fields, { name: '', integer: 'twelve' }).issues).toEqual([
      { key: 'name', message: 'String is required.' },
      { key: 'integer', message: 'Integer must be a number.' },
    ]);
  });
});
