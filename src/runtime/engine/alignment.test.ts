import { describe, expect, it } from 'vitest';
import type { CapabilityInfo } from '../registry';
import { confirmationReason, decideCall, isNamed } from './alignment';

const info = (over: Partial<CapabilityInfo>): CapabilityInfo => ({
  name: 'records.import_csv',
  title: 'Import CSV',
  description: 'Imports rows from a CSV file.',
  kind: 'read',
  annotations: { readOnlyHint: true },
  inputSchema: { type: 'object', properties: {} },
  ...over,
});

describe('isNamed', () => {
  it('accepts the machine name, the title, or the name read as words, ignoring case', () => {
    const c = info({});
    expect(isNamed('run records.import_csv now', c)).toBe(true);
    expect(isNamed('please IMPORT CSV from the upload', c)).toBe(true);
    expect(isNamed('records import csv', c)).toBe(true);
  });

  it('wants whole words', () => {
    expect(isNamed('the importer csvs are broken', info({}))).toBe(false);
    expect(isNamed('bring in the spreadsheet', info({}))).toBe(false);
  });
});

describe('confirmationReason', () => {
  it('asks nothing of a read', () => {
    expect(confirmationReason(info({}))).toBeNull();
  });

  it('treats a mutate as destructive unless it says destructiveHint: false (MCP default)', () => {
    expect(confirmationReason(info({ kind: 'mutate', annotations: {} }))).toMatch(/needs your approval/);
    expect(confirmationReason(info({ kind: 'mutate', annotations: { destructiveHint: true } }))).toMatch(/needs your approval/);
    expect(confirmationReason(info({ kind: 'mutate', annotations: { destructiveHint: false } }))).toBeNull();
  });

  it('always asks for a mutate that requires confirmation', () => {
    expect(confirmationReason(info({ kind: 'mutate', annotations: { destructiveHint: false }, requires_user_confirmation: true }))).toBe(
      'Import CSV changes your data and asks for your approval first.',
    );
  });
});

describe('decideCall', () => {
  const read = info({ name: 'records.list', title: 'List records' });
  const safeMutate = info({ name: 'notes.add', title: 'Add note', kind: 'mutate', annotations: { destructiveHint: false } });
  const destructive = info({ name: 'records.delete', title: 'Delete records', kind: 'mutate', annotations: {} });

  it('strict: runs what the user named, proposes what they did not', () => {
    expect(decideCall({ capability: read, alignment: 'strict', userText: 'list records please' })).toEqual({ action: 'run' });
    expect(decideCall({ capability: read, alignment: 'strict', userText: 'what do I have?' })).toMatchObject({ action: 'propose' });
    expect(decideCall({ capability: safeMutate, alignment: 'strict', userText: 'remember to call Ada' })).toMatchObject({ action: 'propose' });
  });

  it('loose: runs a read or a safe mutate without being named', () => {
    expect(decideCall({ capability: read, alignment: 'loose', userText: 'what do I have?' })).toEqual({ action: 'run' });
    expect(decideCall({ capability: safeMutate, alignment: 'loose', userText: 'remember to call Ada' })).toEqual({ action: 'run' });
  });

  it('a destructive mutate waits for approval in both modes, even when named', () => {
    expect(decideCall({ capability: destructive, alignment: 'loose', userText: 'clean up' })).toMatchObject({ action: 'approve' });
    expect(decideCall({ capability: destructive, alignment: 'strict', userText: 'delete records older than 2020' })).toMatchObject({ action: 'approve' });
  });

  it('runs a call the user already accepted as a proposal', () => {
    expect(decideCall({ capability: destructive, alignment: 'strict', userText: 'clean up', authorized: true })).toEqual({ action: 'run' });
  });
});
