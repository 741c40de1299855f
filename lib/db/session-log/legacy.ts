import "server-only";
import type { Conn } from "../client";
import type { SqlRunner } from "../sql";

/**
 * TRANSITIONAL: the connection under what a caller not yet moved passes (the SQL runner of its transaction),
 * or what it passes when it already is one. Goes away with lib/db/sql.
 */
export function connOf(on: Conn | SqlRunner): Conn {
  const run = on as Partial<SqlRunner>;
  return typeof run.execute === "function" && run.conn ? run.conn : (on as Conn);
}
