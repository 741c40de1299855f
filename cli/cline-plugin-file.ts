// The file `plangate connect cline` writes: a marker, the hook command the plugin runs, and the plugin itself
// (cli/cline-plugin.ts, bundled by scripts/build-bundles.ts).
import { carriedFile, carriedMarker } from "./carried-file";

/** Marks the file this module wrote, so `--remove` and re-connecting touch only Plangate's own plugin. */
export const CLINE_PLUGIN_MARKER = carriedMarker("cline");

export const clinePluginFile = (bundle: string, o: { command: string }): string =>
  carriedFile(
    CLINE_PLUGIN_MARKER,
    "Cline's plan mode in folders connected to Plangate: no edits or commands until a plan is approved there.",
    o,
    bundle,
  );
