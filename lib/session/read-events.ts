// The log's reads live in lib/db/session-log; these names stay for their importers.
export { eventFromRow, type ReadOptions, readEvents } from "../db/session-log/read-events";
