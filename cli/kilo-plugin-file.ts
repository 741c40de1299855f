// The file `plangate connect kilo` writes: a marker, the hook command the plugin runs, whether asks go to the desk,
// and the plugin itself (cli/kilo-plugin.ts, bundled by scripts/build-bundles.ts).
import { carriedFile, carriedMarker } from "./carried-file";

/** Marks the file this module wrote, so `--remove` and re-connecting touch only Plangate's own plugin. */
export const KILO_PLUGIN_MARKER = carriedMarker("kilo");

export const kiloPluginFile = (bundle: string, o: { command: string; asks: boolean }): string =>
  carriedFile(
    KILO_PLUGIN_MARKER,
    "Sends Kilo's plans (plan_exit) in folders connected to Plangate to its desk and applies the decision made there.",
    o,
    bundle,
  );
