import { LOG_LEVEL_META_KEY, ProtocolError, ProtocolErrorCode, type LoggingLevel, type ServerContext } from '@modelcontextprotocol/server';
import type { DoorResponse } from '../runtime/doors/door';
import type { Principal } from '../runtime/principal';

/** MCP's log levels (RFC 5424), least severe first. */
export const LOG_LEVELS: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** Principals whose 2025-era `logging/setLevel` is remembered (least recently set forgotten first). */
const REMEMBERED = 10_000;

/**
 * The level a 2025-era client set with `logging/setLevel`. That leg is served statelessly (no
 * session, a server per request), so the level is kept by the caller (the principal's user) for
 * the requests that follow, as a session would keep it. A 2026-07-28 client sends its level on
 * each request instead (`_meta["io.modelcontextprotocol/logLevel"]`).
 */
export interface LogLevels {
  get(principal: Principal): LoggingLevel | undefined;
  set(principal: Principal, level: LoggingLevel): void;
}

export function createLogLevels(limit = REMEMBERED): LogLevels {
  const levels = new Map<string, LoggingLevel>();
  return {
    get: (principal) => levels.get(principal.user),
    set(principal, level) {
      levels.delete(principal.user);
      levels.set(principal.user, level);
      if (levels.size > limit) levels.delete(levels.keys().next().value!);
    },
  };
}

/** A `logging/setLevel` level, or -32602 naming the levels there are. */
export function parseLevel(level: unknown): LoggingLevel {
  if (typeof level === 'string' && (LOG_LEVELS as readonly string[]).includes(level)) return level as LoggingLevel;
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, `"${String(level)}" is not a log level; use one of ${LOG_LEVELS.join(', ')}.`);
}

/** Sends a log message on the request's own stream, or drops it below the client's level. */
export type DoorLog = (level: LoggingLevel, data: Record<string, unknown>) => void;

/** The log of a request whose client asked for none. */
export const QUIET: DoorLog = () => undefined;

/**
 * The log of one request: `notifications/message` (logger `chatsurface`) at or above the level
 * the client asked for: on 2026-07-28 the request's `_meta` level, on 2025 eras the level its
 * caller last set. Nothing is sent to a client that asked for no level.
 */
export function requestLog(ctx: ServerContext, era: 'legacy' | 'modern', principal: Principal, levels: LogLevels): DoorLog {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const asked = era === 'modern' ? (envelope?.[LOG_LEVEL_META_KEY] ?? ctx.mcpReq._meta?.[LOG_LEVEL_META_KEY]) : levels.get(principal);
  if (asked === undefined) return QUIET;
  const threshold = LOG_LEVELS.indexOf(parseLevel(asked));
  return (level, data) => {
    if (LOG_LEVELS.indexOf(level) < threshold) return;
    ctx.mcpReq.notify({ method: 'notifications/message', params: { level, logger: 'chatsurface', data } }).catch(() => undefined);
  };
}

/**
 * What the door logs about a call once it answers: `info` when it ran (`error` when its result is
 * an error), `notice` when it still runs as a job, `warning` when it was refused before running.
 */
export function logOutcome(log: DoorLog, tool: string, response: DoorResponse): void {
  switch (response.kind) {
    case 'done': {
      const failed = response.result.isError === true || response.job.status !== 'done';
      log(failed ? 'error' : 'info', { message: `${tool} ${failed ? 'ended in an error' : 'ran'} as job ${response.jobId} (${response.job.status}).`, tool, job: response.jobId, status: response.job.status });
      return;
    }
    case 'running':
      log('notice', { message: `${tool} is still ${response.job.status === 'waiting' ? 'waiting for approval' : 'running'} as job ${response.jobId}.`, tool, job: response.jobId, status: response.job.status });
      return;
    case 'refused':
      log('warning', { message: `${tool} was refused before it ran (${response.error.code}): ${response.error.message}`, tool, code: response.error.code });
      return;
    default:
      return response satisfies never;
  }
}
