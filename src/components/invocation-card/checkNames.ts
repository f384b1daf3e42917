/** Postcondition kinds in words: what a failed check is called on its card and its row. */
const CHECK_NAMES: Record<string, string> = {
  row_count_change: 'Row count',
  file_created: 'Files created',
  exit_code: 'Exit code',
  stdout_matches: 'Output',
  duration: 'Duration',
};

/** A postcondition kind in words ("row_count_change" → "Row count"); an unknown one with its underscores as spaces. */
export function checkName(postcondition: string): string {
  return CHECK_NAMES[postcondition] ?? postcondition.replace(/_/g, ' ');
}
