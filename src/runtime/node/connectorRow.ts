import type { Connector } from '../stores/connectorStore';

/** A row of `mcp_connectors`, as SQLite and PostgreSQL return it (PostgreSQL's BIGINT comes back as a string). */
export interface ConnectorRow {
  space: string;
  user_id: string;
  label: string;
  url: string;
  token: string | null;
  created_at: string | number;
}

/** The stored connector a row holds. */
export const connectorOfRow = (row: ConnectorRow): Connector => ({
  space: row.space,
  user: row.user_id,
  label: row.label,
  url: row.url,
  ...(row.token !== null ? { token: row.token } : {}),
  createdAt: Number(row.created_at),
});
