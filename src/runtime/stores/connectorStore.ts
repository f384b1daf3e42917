/** Whose connector it is: a user in a space (`spaceOf(principal)`). */
export interface ConnectorOwner {
  user: string;
  space: string;
}

/** One MCP server a user connected themselves (BYO MCP): kept on the server, never sent to the browser. */
export interface Connector extends ConnectorOwner {
  /** The user's name for it: the namespace of its tools (`<label>.<tool>`). Unique per owner. */
  label: string;
  /** Its Streamable HTTP endpoint. */
  url: string;
  /** Sent as `Authorization: Bearer <token>`; never leaves the server. */
  token?: string;
  /** When it was connected (ms since the epoch). */
  createdAt: number;
}

/**
 * Where the users' own MCP servers live, by owner and label. The connector
 * routes check labels, URLs and limits before they write; the store only
 * keeps rows. Methods may answer at once or with a promise.
 */
export interface ConnectorStore {
  /** The owner's connectors, oldest first. */
  list(owner: ConnectorOwner): readonly Connector[] | Promise<readonly Connector[]>;
  /** Adds a connector; false (and nothing written) when the owner already has one with that label. */
  add(connector: Connector): boolean | Promise<boolean>;
  /** Removes the owner's connector with that label; false when there was none. */
  remove(owner: ConnectorOwner, label: string): boolean | Promise<boolean>;
  /**
   * Replaces the URL and token of the owner's connector with that label and `createdAt` (its renewed
   * sign-in); false when there is none (removed, or connected again since). Optional: without it the
   * server removes and adds the row.
   */
  update?(connector: Connector): boolean | Promise<boolean>;
}

/**
 * Connectors in memory (tests, a page): the reference the SQLite and
 * PostgreSQL stores' suite is checked against. Rows are copied, as a database would.
 * @example
 * const store = createMemoryConnectorStore();
 */
export function createMemoryConnectorStore(): ConnectorStore {
  const rows: Connector[] = [];
  const same = (a: ConnectorOwner, b: ConnectorOwner) => a.user === b.user && a.space === b.space;
  return {
    list: (owner) =>
      rows
        .filter((r) => same(r, owner))
        .sort((a, b) => a.createdAt - b.createdAt || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0))
        .map((r) => ({ ...r })),
    add(connector) {
      if (rows.some((r) => same(r, connector) && r.label === connector.label)) return false;
      rows.push({ ...connector });
      return true;
    },
    remove(owner, label) {
      const i = rows.findIndex((r) => same(r, owner) && r.label === label);
      if (i < 0) return false;
      rows.splice(i, 1);
      return true;
    },
    update(connector) {
      const i = rows.findIndex((r) => same(r, connector) && r.label === connector.label && r.createdAt === connector.createdAt);
      if (i < 0) return false;
      rows[i] = { ...connector };
      return true;
    },
  };
}
