import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../capability';
import { textResult } from '../results';
import { createRegistry } from '../registry';
import { openApiDocument } from './openapi';

const registry = createRegistry([
  defineCapability({
    name: 'records.import_csv',
    title: 'Import CSV',
    description: 'Imports rows from a CSV file.',
    examples: ['import customers.csv', 'bring in the spreadsheet'],
    kind: 'mutate',
    input: z.object({ file: z.string().min(1), dryRun: z.boolean().default(false), columns: z.array(z.enum(['name', 'email'])).optional() }),
    output: z.object({ inserted: z.number().int() }),
    handler: () => textResult('', { inserted: 0 }),
  }),
  defineCapability({ name: 'records.list', title: 'List records', description: 'Lists records.', input: z.object({ limit: z.number().int().max(100).optional() }), handler: () => textResult('') }),
  defineCapability({ name: 'crm.export', title: 'Export to CRM', description: 'Overwrites staging.', kind: 'mutate', requires_user_confirmation: true, input: z.object({}), handler: () => textResult('') }),
]);

describe('openApiDocument', () => {
  it('is a valid OpenAPI 3.1 document by a maintained validator', async () => {
    const validator = new Validator();
    const verdict = await validator.validate(openApiDocument(registry.describe(), { title: 'Records', version: '2.0.0', serverUrl: 'https://records.example' }));
    expect(verdict.errors ?? []).toEqual([]);
    expect(verdict.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('describes its tags and its license', () => {
    const doc = openApiDocument(registry.describe()) as { tags: { name: string; description: string }[]; info: Record<string, unknown> };
    expect(doc.tags.map((t) => t.name)).toEqual(['mutate', 'read', 'jobs']);
    expect(doc.tags.every((t) => t.description.length > 0)).toBe(true);
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
    expect((openApiDocument([], { license: { name: 'Proprietary', url: 'https://records.example/terms' } }) as { info: Record<string, unknown> }).info.license).toEqual({ name: 'Proprietary', url: 'https://records.example/terms' });
  });

  it('has one operation per capability whose body is its input schema, and a typed 200', () => {
    const doc = openApiDocument(registry.describe()) as { paths: Record<string, { post?: Record<string, any>; get?: Record<string, any> }>; security: unknown };
    expect(Object.keys(doc.paths)).toEqual(['/v1/capabilities/crm.export', '/v1/capabilities/records.import_csv', '/v1/capabilities/records.list', '/v1/jobs/{id}/approve', '/v1/jobs/{id}/decline', '/v1/jobs/{id}']);
    const op = doc.paths['/v1/capabilities/records.import_csv']!.post!;
    expect(op).toMatchObject({ operationId: 'records_import_csv', summary: 'Import CSV', tags: ['mutate'] });
    // The capability's examples are part of its docs.
    expect(op.description).toBe('Imports rows from a CSV file.\n\nAsked for as: “import customers.csv”, “bring in the spreadsheet”.');
    expect(doc.paths['/v1/capabilities/records.list']!.post!.description).toBe('Lists records.');
    const { $schema: _d, ...input } = registry.describe()[1]!.inputSchema;
    expect(op.requestBody.content['application/json'].schema).toEqual(input);
    expect(op.responses['200'].content['application/json'].schema.allOf[1].properties.structuredContent).toMatchObject({ properties: { inserted: { type: 'integer' } } });
    expect(Object.keys(op.responses).sort()).toEqual(['200', '202', '400', '401', '402', '403', '409', '413', '415', '429', '500', '503']);
    // The headers the door sends, declared where it sends them.
    expect(Object.keys(op.responses['200'].headers)).toEqual(['X-Job-Id', 'Idempotent-Replayed']);
    expect(Object.keys(op.responses['202'].headers)).toEqual(['Location', 'Retry-After', 'X-Job-Id', 'Idempotent-Replayed']);
    expect(Object.keys(op.responses['429'].headers)).toEqual(['Retry-After']);
    expect(Object.keys(op.responses['401'].headers)).toEqual(['WWW-Authenticate']);
    expect(doc.paths['/v1/capabilities/records.list']!.post!.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Envelope' });
    expect(doc.security).toEqual([{ bearer: [] }]);
  });

  it('says that a capability that requires confirmation answers 202 with a job that waits for a person, and how to decide it', () => {
    const doc = openApiDocument(registry.describe()) as { paths: Record<string, { post?: Record<string, any> }>; components: { schemas: Record<string, any> } };
    const op = doc.paths['/v1/capabilities/crm.export']!.post!;
    expect(op['x-requires-confirmation']).toBe(true);
    expect(op.parameters).toContainEqual({ $ref: '#/components/parameters/ApprovalThread' });
    expect(op.responses['202'].description).toMatch(/^It requires confirmation, so nothing ran: the job waits \(`status: waiting`\)/);
    expect(doc.paths['/v1/capabilities/records.import_csv']!.post!.responses['202'].description).toBe('Still running after the wait: poll the job.');
    expect(doc.components.schemas.Job.properties.status.enum).toContain('waiting');
    expect(Object.keys(doc.paths['/v1/jobs/{id}/approve']!.post!.responses)).toEqual(['200', '202', '400', '401', '403', '404', '409', '413', '415', '503']);
    expect(doc.paths['/v1/jobs/{id}/decline']!.post!.operationId).toBe('declineJob');
  });
});
