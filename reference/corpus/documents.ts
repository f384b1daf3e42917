/** A small bundled corpus: notes per tenant collection, searched over MCP. */
export interface CorpusDocument {
  id: string;
  /** The tenant's collection; a caller is pinned to its own. */
  collection: string;
  title: string;
  text: string;
}

export const corpus: readonly CorpusDocument[] = [
  { id: 'acme-1', collection: 'acme', title: 'Onboarding checklist for new customers', text: 'Every new customer gets a welcome call within two days, a shared channel, and a named account manager. Import their contact list as CSV and enrich it before the first quarterly review.' },
  { id: 'acme-2', collection: 'acme', title: 'How we enrich records', text: 'Enrichment adds industry, company size and website to each record. It runs in batches of at most fifty records and reports progress per record. Records without a website are enriched from the email domain.' },
  { id: 'acme-3', collection: 'acme', title: 'CRM export rules', text: 'Export to the CRM only after enrichment. The export writes one CSV file per run into the exports folder and needs approval because it overwrites the CRM staging table.' },
  { id: 'acme-4', collection: 'acme', title: 'Churn signals', text: 'Customers who stop logging in for thirty days, shrink their seat count or open more than three support tickets in a week are at risk. Flag them for a call from their account manager.' },
  { id: 'acme-5', collection: 'acme', title: 'Quarterly review template', text: 'A quarterly review covers usage, open tickets, renewal date and expansion opportunities. Pull the numbers from the records list and summarise them in three bullet points.' },
  { id: 'acme-6', collection: 'acme', title: 'Data quality for CSV imports', text: 'A CSV import must insert one record per non-blank row. Rows with invalid emails, impossible dates or unknown countries are rejected and reported with the row number and the field.' },
  { id: 'globex-1', collection: 'globex', title: 'Globex pricing sheet (confidential)', text: 'Enterprise seats are discounted by forty percent for contracts above three years. This document is internal to Globex.' },
  { id: 'globex-2', collection: 'globex', title: 'Globex churn playbook', text: 'Globex calls at-risk customers within a day and offers a free training session.' },
];
