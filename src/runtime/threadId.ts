import * as z from 'zod/mini';


/** A thread id: chosen by the client, unique within its user. */
export const THREAD_ID = /^[A-Za-z0-9_.-]{1,128}$/;

/** What a valid thread id looks like, in words a developer can act on. */
export const THREAD_ID_RULE = 'A thread id is 1–128 characters from A–Z a–z 0–9 _ . -';

/** The thread-id rule as a schema, for bodies and path parameters alike. */
export const ThreadId = z.string().check(z.regex(THREAD_ID, THREAD_ID_RULE));
