import type { CapabilityResult } from './envelope';
import type { CapabilityError } from './events';
import type { ProgressInfo } from './fold';

export type JobStatus = 'queued' | 'running' | 'ready' | 'failed' | 'cancelled';

/** The record every invocation keeps: what a REST client polls and a tracked card follows. */
export interface Job {
  /** Equal to the invocation id. */
  id: string;
  capability: string;
  threadId: string;
  status: JobStatus;
  progress?: ProgressInfo;
  result?: CapabilityResult;
  error?: CapabilityError;
  /** Epoch milliseconds. */
  createdAt: number;
  updatedAt: number;
}

/** Where jobs live: in memory by default, SQLite on the server. Small on purpose. */
export interface JobStore {
  put(job: Job): Promise<void>;
  get(id: string): Promise<Job | undefined>;
  /** Newest first. */
  list(options?: { threadId?: string; limit?: number }): Promise<Job[]>;
}

/** A job store in memory, for the page and for tests. */
export function createMemoryJobStore(): JobStore {
  const jobs = new Map<string, Job>();
  return {
    async put(job) {
      jobs.set(job.id, structuredClone(job));
    },
    async get(id) {
      const job = jobs.get(id);
      return job && structuredClone(job);
    },
    async list({ threadId, limit = 100 } = {}) {
      return [...jobs.values()]
        .filter((job) => threadId === undefined || job.threadId === threadId)
        .sort((a, b) => b.createdAt - a.createdAt)
        .slice(0, limit)
        .map((job) => structuredClone(job));
    },
  };
}
