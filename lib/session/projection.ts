// Moved to lib/core/projection (lib/db reads and writes these columns too); kept for importers not yet updated.
export { projectionColumns, stateFromRow, usageFromStateJson, type ProjectionColumns } from "../core/projection";
