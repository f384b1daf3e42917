import type { RecordRow } from './store';

/** What enrichment adds to a record. */
export interface Enrichment {
  industry: string;
  website: string | null;
  employees: number | null;
}

const INDUSTRIES: [RegExp, string][] = [
  [/\b(bank|capital|finance|pay|fund)/i, 'Financial services'],
  [/\b(orbit|space|aero|rocket)/i, 'Aerospace'],
  [/\b(lab|bio|pharma|health|clinic)/i, 'Life sciences'],
  [/\b(engine|systems|software|cobol|code|data|analytic|paths)/i, 'Software'],
  [/\b(park|museum|school|university|college)/i, 'Education and culture'],
];

/**
 * Deterministic enrichment from what a record already holds: industry from
 * the company name, website from the email domain when missing.
 * @example
 * enrichRecord({ company: 'Orbit Labs', email: 'k@orbit.example', … }) // → { industry: 'Aerospace', … }
 */
export function enrichRecord(record: Pick<RecordRow, 'company' | 'email' | 'website' | 'employees'>): Enrichment {
  const company = record.company ?? '';
  const domain = record.email.split('@')[1] ?? '';
  const industry = INDUSTRIES.find(([pattern]) => pattern.test(company) || pattern.test(domain))?.[1] ?? 'Other';
  return {
    industry,
    website: record.website ?? (domain ? `https://${domain}` : null),
    employees: record.employees,
  };
}
