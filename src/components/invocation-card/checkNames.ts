/** A postcondition kind in words, from the surface's messages (`violation.checks`): "row_count_change" → "Row count"; an unknown one with its underscores as spaces. */
export function checkName(postcondition: string, names: Readonly<Record<string, string>>): string {
  return names[postcondition] ?? postcondition.replace(/_/g, ' ');
}
