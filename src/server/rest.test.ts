import { Validator } from '@seriousme/openapi-schema-validator';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../runtime/capability';
import { createMemoryMeter } from '../runtime/doors/meter';
import { textResult } from '../runtime/results';
import { createWorkspaceServer, type WorkspaceServer, type WorkspaceServerOptions } from './createWorkspaceServer';

const KEY = 'test-key-0123456789';
const OTHER = 'other-key-0123456789';
let calls: Record<string, number> = {};
let server: WorkspaceServer | null = null;

afterEach(async () => {
  await server?.close();
  server = null;
  calls = {};
});

const count = (name: string) => {
  calls[name] = (calls[name] ?? 0) + 1;
};

const add = defineCapability({
  name: 'math.add',
  title: 'Add',
  description: 'Adds two numbers.',
  input: z.object({ a: z.number(), b: z.number() }),
  output: z.object({ sum: z.number() }),
  handler: async ({ a, b }) => {
    count('math.add');
    await new Promise((resolve) => setTimeout(resolve, 20));
    return textResult(String(a + b), { sum: a + b });
  },
});

const slow = defineCapability({
  name: 'report.build',
  title: 'Build report',
  description: 'Builds a report section by section (slow).',
  input: z.object({ sections: z.number().int().min(1).max(10) }),
  handler: async ({ sections }, ctx) => {
    count('report.build');
    for (let i = 1; i <= sections; i++) {
      await new Promise((resolve) => setTimeout(resolve, 60));
      ctx.progress(i, sections, `Section ${i}`);
    }
    return textResult(`Built ${sections} sections.`, { sections });
  },
});

const broken = defineCapability({
  name: 'broken.thing',
  title: 'Broken thing',
  description: 'Always throws.',
  input: z.object({}),
  handler: () => {
    count('broken.thing');
    throw new Error('disk on fire');
  },
});

async function start(options: Partial<WorkspaceServerOptions> = {}) {
  server = await createWorkspaceServer({
    capabilities: [add, slow, broken],
    database: ':memory:',
    apiKeys: [
      { id: 'alice', key: KEY },
      { id: 'bob', key: OTHER },
    ],
    ...options,
  });
  const { url } = await server.listen();
  return url;
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });

describe('REST door', () => {
  it('runs a capability with a valid key and answers with the envelope', async () => {
    const url = await start();
    const response = await post(`${url}/v1/capabilities/math.add`, { a: 2, b: 3 });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ content: [{ type: 'text', text: '5' }], structuredContent: { sum: 5 } });
    const jobId = response.headers.get('x-job-id')!;
    const job = await (await fetch(`${url}/v1/jobs/${jobId}`, { headers: { authorization: `Bearer ${KEY}` } })).json();
    expect(job).toMatchObject({ id: jobId, capability: 'math.add', status: 'done', result: { structuredContent: { sum: 5 } } });
    expect(job).not.toHaveProperty('threadId');
    expect(job).not.toHaveProperty('threadKey');
  });

  it('answers 401 with a JSON error without a key or with a wrong one, and runs nothing', async () => {
    const url = await start();
    const none = await fetch(`${url}/v1/capabilities/math.add`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ a: 1, b: 1 }) });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect(await none.json()).toEqual({ error: { code: 'unauthorized', message: 'Send an API key as "Authorization: Bearer <key>".' } });
    const wrong = await post(`${url}/v1/capabilities/math.add`, { a: 1, b: 1 }, { authorization: `Bearer ${KEY.slice(0, -1)}x` });
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).error.message).toBe('The API key is not valid.');
    const jobs = await fetch(`${url}/v1/jobs/inv_x`);
    expect(jobs.status).toBe(401);
    expect(calls['math.add']).toBeUndefined();
  });

  it('answers 400 with one issue per field for bad arguments and 400 for a body that is not JSON', async () => {
    const url = await start();
    const bad = await post(`${url}/v1/capabilities/math.add`, { a: 'two' });
    expect(bad.status).toBe(400);
    const body = await bad.json();
    expect(body.error.code).toBe('invalid_arguments');
    expect(body.error.issues.map((i: { path: string }) => i.path).sort()).toEqual(['a', 'b']);
    const garbled = await post(`${url}/v1/capabilities/math.add`, '{"a": 1,');
    expect(garbled.status).toBe(400);
    expect((await garbled.json()).error.code).toBe('invalid_json');
    expect(calls['math.add']).toBeUndefined();
  });

  it('answers 404 for an unknown capability and for an unknown job', async () => {
    const url = await start();
    const verb = await post(`${url}/v1/capabilities/nope.nothing`, {});
    expect(verb.status).toBe(404);
    expect((await verb.json()).error.code).toBe('unknown_capability');
    const job = await fetch(`${url}/v1/jobs/inv_missing`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(job.status).toBe(404);
    expect((await job.json()).error.code).toBe('unknown_job');
  });

  it('blocks a key over budget with 402 before the handler runs', async () => {
    const url = await start({ apiKeys: [{ id: 'alice', key: KEY, budget: 2 }] });
    for (const b of [1, 2]) expect((await post(`${url}/v1/capabilities/math.add`, { a: 1, b })).status).toBe(200);
    const over = await post(`${url}/v1/capabilities/math.add`, { a: 1, b: 3 });
    expect(over.status).toBe(402);
    const body = await over.json();
    expect(body.error.code).toBe('budget_exhausted');
    expect(body.error.message).toContain('Nothing was run');
    expect(calls['math.add']).toBe(2);
  });

  it('does not charge a failed call, and reports a crash as a 500 JSON error', async () => {
    const meter = createMemoryMeter();
    const url = await start({ meter });
    const response = await post(`${url}/v1/capabilities/broken.thing`, {});
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: { code: 'handler_error', message: 'Broken thing failed: disk on fire' } });
    expect(meter.charged('alice')).toBe(0);
  });

  it('charges 20 concurrent retries with one Idempotency-Key once, runs the handler once and gives all the same answer', async () => {
    const meter = createMemoryMeter();
    const url = await start({ meter });
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => post(`${url}/v1/capabilities/math.add`, { a: 20, b: 22 }, { 'idempotency-key': 'order-42' })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    const bodies = await Promise.all(responses.map((r) => r.json()));
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
    expect(bodies[0]).toEqual({ content: [{ type: 'text', text: '42' }], structuredContent: { sum: 42 } });
    expect(new Set(responses.map((r) => r.headers.get('x-job-id'))).size).toBe(1);
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
    expect(calls['math.add']).toBe(1);
    expect(meter.charged('alice')).toBe(1);
    // A later retry is still a replay; the same key with another body is a conflict.
    expect((await post(`${url}/v1/capabilities/math.add`, { b: 22, a: 20 }, { 'idempotency-key': 'order-42' })).status).toBe(200);
    const conflict = await post(`${url}/v1/capabilities/math.add`, { a: 1, b: 1 }, { 'idempotency-key': 'order-42' });
    expect(conflict.status).toBe(409);
    expect((await conflict.json()).error.code).toBe('idempotency_conflict');
    expect(calls['math.add']).toBe(1);
    expect(meter.charged('alice')).toBe(1);
    // Idempotency keys belong to their API key: bob's "order-42" is his own request.
    expect((await post(`${url}/v1/capabilities/math.add`, { a: 1, b: 1 }, { 'idempotency-key': 'order-42', authorization: `Bearer ${OTHER}` })).status).toBe(200);
    expect(calls['math.add']).toBe(2);
  });

  it('limits requests per key with 429 and Retry-After', async () => {
    const url = await start({ apiKeys: [{ id: 'alice', key: KEY, requestsPerMinute: 3 }] });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await post(`${url}/v1/capabilities/math.add`, { a: i, b: 0 })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await post(`${url}/v1/capabilities/math.add`, { a: 9, b: 0 });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await limited.json()).error.code).toBe('rate_limited');
    expect(calls['math.add']).toBe(3);
  });

  it('refuses a body over the size bound with 413 and runs nothing', async () => {
    const url = await start({ maxBodyBytes: 1_024 });
    const response = await post(`${url}/v1/capabilities/math.add`, { a: 1, b: 2, padding: 'x'.repeat(2_000) });
    expect(response.status).toBe(413);
    expect((await response.json()).error.code).toBe('payload_too_large');
    expect(calls['math.add']).toBeUndefined();
  });

  it('answers 202 with the job when a capability outlasts the wait, and GET /v1/jobs/{id} follows it to done', async () => {
    const url = await start({ restWaitMs: 50 });
    const response = await post(`${url}/v1/capabilities/report.build`, { sections: 4 });
    expect(response.status).toBe(202);
    const job = await response.json();
    expect(response.headers.get('location')).toBe(`/v1/jobs/${job.id}`);
    expect(['queued', 'running']).toContain(job.status);
    const read = async () => (await fetch(`${url}/v1/jobs/${job.id}`, { headers: { authorization: `Bearer ${KEY}` } })).json();
    await expect.poll(async () => (await read()).status, { timeout: 3_000, interval: 50 }).toBe('done');
    expect(await read()).toMatchObject({ status: 'done', progress: { progress: 4, total: 4 }, result: { structuredContent: { sections: 4 } } });
    // Another key does not see alice's REST job.
    expect((await fetch(`${url}/v1/jobs/${job.id}`, { headers: { authorization: `Bearer ${OTHER}` } })).status).toBe(404);
  });

  it("lets the host decide who reads a job", async () => {
    const url = await start({ canReadJob: (principal) => principal.user === 'bob' });
    const response = await post(`${url}/v1/capabilities/math.add`, { a: 1, b: 1 });
    const id = response.headers.get('x-job-id');
    expect((await fetch(`${url}/v1/jobs/${id}`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(404);
    expect((await fetch(`${url}/v1/jobs/${id}`, { headers: { authorization: `Bearer ${OTHER}` } })).status).toBe(200);
  });

  it('declares in its OpenAPI document every status and header it answered with', async () => {
    const CAROL = 'carol-key-0123456789';
    const url = await start({ apiKeys: [{ id: 'alice', key: KEY, budget: 3 }, { id: 'bob', key: OTHER, requestsPerMinute: 2 }, { id: 'carol', key: CAROL }], maxBodyBytes: 1_024, restWaitMs: 50 });
    const doc = await (await fetch(`${url}/v1/openapi.json`, { headers: { authorization: `Bearer ${CAROL}` } })).json();
    const sent: [string, Response][] = [];
    const add = `${url}/v1/capabilities/math.add`;
    const build = `${url}/v1/capabilities/report.build`;
    const broken = `${url}/v1/capabilities/broken.thing`;
    const carol = { authorization: `Bearer ${CAROL}` };
    sent.push([add, await post(add, { a: 1, b: 2 }, { 'idempotency-key': 'k1' })]);
    sent.push([add, await post(add, { a: 1, b: 2 }, { 'idempotency-key': 'k1' })]);
    sent.push([add, await post(add, { a: 2, b: 2 }, { 'idempotency-key': 'k1' })]);
    sent.push([add, await post(add, { a: 'one' }, carol)]);
    sent.push([add, await post(add, '{not json', carol)]);
    sent.push([add, await post(add, { a: 1, b: 2 }, { authorization: 'Bearer nope-nope-nope-nope' })]);
    sent.push([add, await post(add, { a: 1, b: 2 }, { ...carol, 'content-type': 'text/plain' })]);
    sent.push([add, await post(add, { a: 1, padding: 'x'.repeat(2_000) }, carol)]);
    sent.push([add, await post(add, { a: 1, b: 2 }, { ...carol, origin: 'https://elsewhere.example' })]);
    sent.push([build, await post(build, { sections: 3 }, carol)]);
    sent.push([broken, await post(broken, {}, carol)]);
    // Alice over her budget of 3 (one charged above), Bob over his rate of 2 a minute.
    for (let i = 0; i < 3; i++) sent.push([add, await post(add, { a: i, b: 9 })]);
    for (let i = 0; i < 3; i++) sent.push([add, await post(add, { a: i, b: 9 }, { authorization: `Bearer ${OTHER}` })]);
    const job = sent.find(([, r]) => r.status === 202)![1].headers.get('x-job-id');
    sent.push([`${url}/v1/jobs/{id}`, await fetch(`${url}/v1/jobs/${job}`, { headers: carol })]);
    sent.push([`${url}/v1/jobs/{id}`, await fetch(`${url}/v1/jobs/nope`, { headers: carol })]);
    const statuses = new Set(sent.map(([, r]) => r.status));
    expect([...statuses].sort()).toEqual([200, 202, 400, 401, 402, 403, 404, 409, 413, 415, 429, 500]);
    for (const [at, response] of sent) {
      const path = at.slice(url.length);
      const operation = doc.paths[path].post ?? doc.paths[path].get;
      // The document lists this status for this operation, in words.
      expect(Object.keys(operation.responses), path).toContain(String(response.status));
      const declared = operation.responses[String(response.status)];
      expect(declared.description, `${path} ${response.status}`).toMatch(/\w{3,}/);
      const headers = Object.keys(declared.headers ?? {}).map((h) => h.toLowerCase());
      for (const name of ['x-job-id', 'idempotent-replayed', 'location', 'retry-after', 'www-authenticate']) {
        if (response.headers.has(name)) expect(headers, `${path} ${response.status} ${name}`).toContain(name);
      }
    }
  });

  it('publishes an OpenAPI 3.1 document that a maintained validator accepts', async () => {
    const url = await start();
    // Behind a principal like every /v1 route.
    const anonymous = await fetch(`${url}/v1/openapi.json`);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: { message: string } }).error.message).toContain('Bearer');
    const doc = await (await fetch(`${url}/v1/openapi.json`, { headers: { authorization: `Bearer ${KEY}` } })).json();
    const validator = new Validator();
    const verdict = await validator.validate(doc);
    expect(verdict.errors ?? []).toEqual([]);
    expect(verdict.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(Object.keys(doc.paths).sort()).toEqual(['/v1/capabilities/broken.thing', '/v1/capabilities/math.add', '/v1/capabilities/report.build', '/v1/jobs/{id}', '/v1/jobs/{id}/approve', '/v1/jobs/{id}/decline']);
    expect(doc.servers).toEqual([{ url }]);
    // The validator is not vacuous: the same document with a broken operation is rejected.
    const broken = structuredClone(doc);
    broken.paths['/v1/capabilities/math.add'].post.responses = 'none';
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });
});
