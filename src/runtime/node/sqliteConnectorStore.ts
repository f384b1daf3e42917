import type { ConnectorOwner, ConnectorStore } from '../stores/connectorStore';
import { connectorOfRow as toConnector, type ConnectorRow as Row } from './connectorRow';
import type { WorkspaceDatabase } from './sqliteDatabase';
import { sqliteHandle } from './sqliteHandle';

/**
 * The users' own MCP servers in the workspace database (table
 * `mcp_connectors`): a restarted server connects them again on the owner's
 * next request.
 * @example
 * const connectors = createSqliteConnectorStore(openWorkspaceDatabase('data/workspace.db'));
 */
export function createSqliteConnectorStore(database: WorkspaceDatabase): ConnectorStore {
  const db = sqliteHandle(database);
  const byOwner = db.prepare('SELECT * FROM mcp_connectors WHERE space = ? AND user_id = ? ORDER BY created_at, label');
  const insert = db.prepare(
    `INSERT INTO mcp_connectors (space, user_id, label, url, token, created_at) VALUES (@space, @user, @label, @url, @token, @createdAt)
     ON CONFLICT (space, user_id, label) DO NOTHING`,
  );
  const remove = db.prepare('DELETE FROM mcp_connectors WHERE space = ? AND user_id = ? AND label = ?');
  const update = db.prepare('UPDATE mcp_connectors SET url = @url, token = @token WHERE space = @space AND user_id = @user AND label = @label AND created_at = @createdAt');
  return {
    list: (owner: ConnectorOwner) => (byOwner.all(owner.space, owner.user) as Row[]).map(toConnector),
    add: (c) =>
      insert.run({ space: c.space, user: c.user, label: c.label, url: c.url, token: c.token ?? null, createdAt: c.createdAt }).changes === 1,
    remove: (owner, label) => remove.run(owner.space, owner.user, label).changes === 1,
    update: (c) => update.run({ space: c.space, user: c.user, label: c.label, url: c.url, token: c.token ?? null, createdAt: c.createdAt }).changes === 1,
  };
}
