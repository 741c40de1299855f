// The file `plangate connect amp` writes: a marker, the hook command the plugin runs, and the plugin itself
// (cli/amp-plugin.ts, bundled by scripts/build-bundles.ts).
import { carriedFile, carriedMarker } from "./carried-file";

/** Marks the file this module wrote, so `--remove` and re-connecting touch only Plangate's own plugin. */
export const AMP_PLUGIN_MARKER = carriedMarker("amp");

export const ampPluginFile = (bundle: string, o: { command: string }): string =>
  carriedFile(
    AMP_PLUGIN_MARKER,
    "Amp's submit_plan in folders connected to Plangate; the project's permission delegate is the gate.",
    o,
    bundle,
  );
