import type { ConnectorStore } from '../stores/connectorStore';
import { connectorOfRow as toConnector, type ConnectorRow as Row } from './connectorRow';
import type { PostgresDatabase } from './postgres';

/**
 * The users' own MCP servers in PostgreSQL (table `mcp_connectors`): every
 * instance on the database connects a user's servers on that user's next request.
 * @example
 * const connectors = createPostgresConnectorStore(await openPostgres(process.env.DATABASE_URL!));
 */
export function createPostgresConnectorStore(db: PostgresDatabase): ConnectorStore {
  return {
    async list(owner) {
      const { rows } = await db.query<Row>('SELECT * FROM mcp_connectors WHERE space = $1 AND user_id = $2 ORDER BY created_at, label COLLATE "C"', [owner.space, owner.user]);
      return rows.map(toConnector);
    },
    async add(c) {
      const { rowCount } = await db.query(
        `INSERT INTO mcp_connectors (space, user_id, label, url, token, created_at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (space, user_id, label) DO NOTHING`,
        [c.space, c.user, c.label, c.url, c.token ?? null, c.createdAt],
      );
      return rowCount === 1;
    },
    async remove(owner, label) {
      const { rowCount } = await db.query('DELETE FROM mcp_connectors WHERE space = $1 AND user_id = $2 AND label = $3', [owner.space, owner.user, label]);
      return rowCount === 1;
    },
    async update(c) {
      const { rowCount } = await db.query('UPDATE mcp_connectors SET url = $4, token = $5 WHERE space = $1 AND user_id = $2 AND label = $3 AND created_at = $6', [
        c.space,
        c.user,
        c.label,
        c.url,
        c.token ?? null,
        c.createdAt,
      ]);
      return rowCount === 1;
    },
  };
}
