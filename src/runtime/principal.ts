/**
 * Who is asking, on every door (the workspace protocol, REST, MCP): what the
 * host's `authenticate(request)` hook returns. Threads, pending decisions, the
 * composer, jobs and private skills belong to a principal's `user` (in its
 * `space`); another principal's thread answers 404.
 */
export interface Principal {
  /** Stable user id (never a secret): it owns threads, jobs and `{user}/Skill`, and names the caller in meters and logs. */
  user: string;
  /** The space (tenant, organisation) the user works in: `{space}` in node queries. @default 'default' */
  space?: string;
  /** What the host grants beyond the user's own things, e.g. `skills:space` to write the space's skills. @default [] */
  scopes?: readonly string[];
  /** Units this principal may spend on the metered doors; the default meter blocks with 402 beyond it. @default Infinity */
  budget?: number;
  /** Requests this principal may make per minute; the default meter answers 429 beyond it. @default 600 */
  requestsPerMinute?: number;
}

/** The host hook every door uses: a request in, a principal (or null: 401) out. */
export type Authenticate = (request: Request) => Principal | null | Promise<Principal | null>;

/** Scopes the kit checks. */
export const SCOPES = {
  /** Write (save, replace) the skills of the principal's space (`{space}/Skill`). */
  spaceSkills: 'skills:space',
} as const;

/** The space a principal works in. */
export function spaceOf(principal: Pick<Principal, 'space'>): string {
  return principal.space ?? 'default';
}

/** True when the host granted `scope`. */
export function hasScope(principal: Pick<Principal, 'scopes'>, scope: string): boolean {
  return principal.scopes?.includes(scope) ?? false;
}
