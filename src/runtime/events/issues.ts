import * as z from 'zod/mini';
import { ensureEnglishMessages } from '../zodLocale';

ensureEnglishMessages();

/** Field-level problems: what a capability's arguments or an event got wrong, and where. */

/** A field-level problem with arguments: `path` like `amount` or `rows.0.name`. */
export const FieldIssueSchema = z.object({ path: z.string(), message: z.string() });

export type FieldIssue = z.infer<typeof FieldIssueSchema>;

/** Zod issues as field-level issues (`path: message`). */
export function toFieldIssues(issues: readonly z.core.$ZodIssue[]): FieldIssue[] {
  return issues.map((issue) => ({
    path: issue.path.length ? issue.path.map(String).join('.') : '(root)',
    message: issue.message,
  }));
}

export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  return toFieldIssues(issues)
    .map((i) => `${i.path}: ${i.message}`)
    .join('; ');
}
