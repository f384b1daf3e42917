import { CapabilityResultSchema } from '../envelope';
import type { CapabilityInfo } from '../registry';
import { toJsonSchema } from '../registry';
import { needsPerson } from './approvals';
import { publishedSchema } from './mcpTools';

export interface OpenApiOptions {
  /** @default 'ChatSurface workspace' */
  title?: string;
  /** The API's version. @default '1.0.0' */
  version?: string;
  /** The origin clients call, e.g. `https://app.example.com`. */
  serverUrl?: string;
  /** The API's license (`info.license`). @default the kit's own, MIT */
  license?: { name: string; identifier?: string; url?: string };
}

/** The response headers the server sends (`components.headers`), by name. */
type HeaderName = 'JobId' | 'IdempotentReplayed' | 'Location' | 'RetryAfter' | 'WwwAuthenticate';
const headerRefs = (...names: HeaderName[]) => Object.fromEntries(names.map((name) => [HEADER_NAMES[name], { $ref: `#/components/headers/${name}` }]));
const HEADER_NAMES: Record<HeaderName, string> = { JobId: 'X-Job-Id', IdempotentReplayed: 'Idempotent-Replayed', Location: 'Location', RetryAfter: 'Retry-After', WwwAuthenticate: 'WWW-Authenticate' };
const HEADERS: Record<HeaderName, unknown> = {
  JobId: { description: 'The job that ran the call (`GET /v1/jobs/{id}`).', schema: { type: 'string' } },
  IdempotentReplayed: { description: '`true` when this is the first answer to the same Idempotency-Key, given again (nothing ran, nothing was charged).', schema: { type: 'string', enum: ['true'] } },
  Location: { description: 'The job to poll.', schema: { type: 'string' } },
  RetryAfter: { description: 'Seconds to wait before asking again.', schema: { type: 'integer', minimum: 0 } },
  WwwAuthenticate: { description: 'The scheme to authenticate with: `Bearer`.', schema: { type: 'string' } },
};

const errorRef = (description: string, ...headers: HeaderName[]) => ({
  description,
  ...(headers.length ? { headers: headerRefs(...headers) } : {}),
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/** What every route may answer, from the guard and the store in front of it. */
const GUARD_RESPONSES = {
  '403': errorRef('A cross-site request (an Origin the server does not allow), or a Host it does not answer on.'),
  '503': errorRef("The server's database is not answering; nothing ran. Try again after Retry-After.", 'RetryAfter'),
};

/**
 * The REST door's OpenAPI 3.1 document, generated from the registry: one
 * `POST /v1/capabilities/{name}` path per capability whose request body is the
 * capability's input JSON Schema (`publishedSchema`, as chat and MCP show it) and
 * whose 200 body is the envelope with its output schema; `GET /v1/jobs/{id}`;
 * bearer authentication.
 * @example
 * const doc = openApiDocument(registry.describe(), { serverUrl: 'http://127.0.0.1:8787' });
 */
export function openApiDocument(capabilities: readonly CapabilityInfo[], options: OpenApiOptions = {}): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  const operationIds = new Set<string>();
  for (const info of capabilities) {
    let operationId = info.name.replace(/[^A-Za-z0-9_]/g, '_');
    while (operationIds.has(operationId)) operationId += '_';
    operationIds.add(operationId);
    const envelope = info.outputSchema
      ? { allOf: [{ $ref: '#/components/schemas/Envelope' }, { type: 'object', properties: { structuredContent: publishedSchema(info.outputSchema) } }] }
      : { $ref: '#/components/schemas/Envelope' };
    const person = needsPerson(info);
    paths[`/v1/capabilities/${info.name}`] = {
      post: {
        ...(person ? { 'x-requires-confirmation': true } : {}),
        operationId,
        summary: info.title,
        // The ways users ask for it, for whoever reads the docs.
        description: info.examples?.length ? `${info.description}\n\nAsked for as: ${info.examples.map((e) => `“${e}”`).join(', ')}.` : info.description,
        tags: [info.kind],
        'x-annotations': info.annotations,
        parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }, ...(person ? [{ $ref: '#/components/parameters/ApprovalThread' }] : [])],
        requestBody: { required: true, content: { 'application/json': { schema: publishedSchema(info.inputSchema) } } },
        responses: {
          '200': {
            description: person
              ? `${info.title} ran (a retry with the same Idempotency-Key, once a person approved it); the envelope.`
              : `${info.title} ran; the envelope (\`isError: true\` for a tool-level error).`,
            headers: headerRefs('JobId', 'IdempotentReplayed'),
            content: { 'application/json': { schema: envelope } },
          },
          '202': person ? WAITING_RESPONSE : RUNNING_RESPONSE,
          '400': errorRef('Invalid JSON or arguments; `issues` names each field.', 'JobId', 'IdempotentReplayed'),
          '401': errorRef('No API key, or not a valid one.', 'WwwAuthenticate'),
          '402': errorRef("The key's budget is spent; nothing ran."),
          '409': errorRef('The Idempotency-Key was used with a different request, or the job was cancelled.', 'JobId', 'IdempotentReplayed'),
          '413': errorRef('The request body is too large.'),
          '415': errorRef('The body is not sent as `application/json`.'),
          '429': errorRef('Too many requests for this key; see Retry-After.', 'RetryAfter'),
          '500': errorRef('The capability failed.', 'JobId', 'IdempotentReplayed'),
          ...GUARD_RESPONSES,
        },
      },
    };
  }
  Object.assign(paths, APPROVAL_PATHS);
  paths['/v1/jobs/{id}'] = {
    get: {
      operationId: 'getJob',
      summary: 'Job status and result',
      tags: ['jobs'],
      description: 'The status of an invocation (waiting for approval, queued, running, done, failed, cancelled), its progress, result or error.',
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      responses: {
        '200': { description: 'The job.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Job' } } } },
        '401': errorRef('No API key, or not a valid one.', 'WwwAuthenticate'),
        '404': errorRef('No such job for this key.'),
        ...GUARD_RESPONSES,
      },
    },
  };
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: options.title ?? 'ChatSurface workspace',
      version: options.version ?? '1.0.0',
      description: 'The workspace\'s capabilities as REST calls: one `POST` per capability, jobs to poll, and approvals for the calls that wait for a person.',
      license: options.license ?? { name: 'MIT', identifier: 'MIT' },
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    security: [{ bearer: [] }],
    tags: tagsOf(paths),
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      headers: HEADERS,
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'Retries with the same key get the first answer and are charged once.',
          schema: { type: 'string', minLength: 1, maxLength: 255 },
        },
        ApprovalThread: {
          name: 'ChatSurface-Approval-Thread',
          in: 'header',
          required: false,
          description: "The caller's thread whose approval row decides the call. @default main",
          schema: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,128}$' },
        },
      },
      schemas: {
        Envelope: publishedSchema(toJsonSchema(CapabilityResultSchema)),
        Job: JOB_SCHEMA,
        Error: ERROR_SCHEMA,
      },
    },
  };
}

const ERROR_SCHEMA = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        issues: { type: 'array', items: { type: 'object', required: ['path', 'message'], properties: { path: { type: 'string' }, message: { type: 'string' } } } },
      },
    },
  },
};

const JOB_SCHEMA = {
  type: 'object',
  required: ['id', 'capability', 'status', 'createdAt', 'updatedAt'],
  properties: {
    id: { type: 'string' },
    capability: { type: 'string' },
    status: { type: 'string', enum: ['waiting', 'queued', 'running', 'done', 'failed', 'cancelled'], description: '`waiting`: for a person\'s approval; nothing has run.' },
    progress: { type: 'object', properties: { progress: { type: 'number' }, total: { type: 'number' }, message: { type: 'string' } } },
    result: { $ref: '#/components/schemas/Envelope' },
    error: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } } },
    approval: {
      type: 'object',
      description: 'A capability that requires confirmation: the approval it waits for, or how the wait ended.',
      required: ['state', 'message', 'expiresAt'],
      properties: {
        state: { type: 'string', enum: ['waiting', 'approved', 'declined', 'expired'] },
        message: { type: 'string', description: 'In plain words: what it waits for and where a person approves it, or how the wait ended.' },
        expiresAt: { type: 'integer', description: 'Epoch milliseconds: unapproved by then, it ends cancelled and never runs.' },
        threadId: { type: 'string', description: "The caller's thread whose approval row decides it." },
        approvalId: { type: 'string' },
        decidedVia: { type: 'string', enum: ['chat', 'rest', 'mcp'] },
        decidedAt: { type: 'integer' },
      },
    },
    createdAt: { type: 'integer', description: 'Epoch milliseconds.' },
    updatedAt: { type: 'integer', description: 'Epoch milliseconds.' },
  },
};

const jobContent = { 'application/json': { schema: { $ref: '#/components/schemas/Job' } } };
const location = headerRefs('Location', 'RetryAfter', 'JobId', 'IdempotentReplayed');

/** The tags the operations use, each described (`tags` at the top, in order of first use). */
const TAG_WORDS: Record<string, string> = {
  read: 'Capabilities that only read.',
  mutate: 'Capabilities that change data.',
  jobs: 'Jobs: the status and result of a call, and the decision on a call that waits for a person.',
};
function tagsOf(paths: Record<string, unknown>): { name: string; description: string }[] {
  const names = new Set<string>();
  for (const item of Object.values(paths)) for (const op of Object.values(item as Record<string, { tags?: string[] }>)) for (const tag of op.tags ?? []) names.add(tag);
  return [...names].map((name) => ({ name, description: TAG_WORDS[name] ?? `Capabilities of kind "${name}".` }));
}

const RUNNING_RESPONSE = { description: 'Still running after the wait: poll the job.', headers: location, content: jobContent };

const WAITING_RESPONSE = {
  description:
    "It requires confirmation, so nothing ran: the job waits (`status: waiting`) until a person approves it on the approval row in the caller's thread, or a key with the `approve` scope sends `POST /v1/jobs/{id}/approve`; `approval.message` says so in words. Unapproved by `approval.expiresAt`, it ends cancelled. Poll the job.",
  headers: location,
  content: jobContent,
};

const decideOperation = (approve: boolean) => ({
  post: {
    operationId: approve ? 'approveJob' : 'declineJob',
    tags: ['jobs'],
    summary: approve ? 'Approve a job that waits for a person' : 'Decline a job that waits for a person',
    description: approve
      ? 'Needs the `approve` scope. The job runs once (its approval row in the chat closes as approved); the answer is the job, 200 when it has ended, 202 while it runs.'
      : 'Needs the `approve` scope. The job ends cancelled and never runs (its approval row in the chat closes as denied).',
    parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
    responses: {
      '200': { description: 'The job, decided.', content: jobContent },
      ...(approve ? { '202': { description: 'Approved and still running: poll the job.', headers: location, content: jobContent } } : {}),
      '400': errorRef('A body that is not JSON, or nested too deep.'),
      '401': errorRef('No API key, or not a valid one.', 'WwwAuthenticate'),
      '403': errorRef('The key does not have the `approve` scope (or a cross-site request, or a Host the server does not answer on).'),
      '404': errorRef('No such job for this key.'),
      '409': errorRef('The job does not wait for approval (decided already, or expired).'),
      '413': errorRef('The request body is too large.'),
      '415': errorRef('A body not sent as `application/json`.'),
      '503': GUARD_RESPONSES['503'],
    },
  },
});

const APPROVAL_PATHS = { '/v1/jobs/{id}/approve': decideOperation(true), '/v1/jobs/{id}/decline': decideOperation(false) };
