// The file `plangate connect pi` writes: a marker, the hook command the extension runs, whether asks go to the
// desk, and the extension itself (cli/pi-extension.ts, bundled by scripts/build-bundles.ts).
import { carriedFile, carriedMarker } from "./carried-file";

/** Marks the file this module wrote, so `--remove` and re-connecting touch only Plangate's own extension. */
export const PI_EXTENSION_MARKER = carriedMarker("pi");

export const piExtensionFile = (bundle: string, o: { command: string; asks: boolean }): string =>
  carriedFile(
    PI_EXTENSION_MARKER,
    "Pi's plan mode in folders connected to Plangate: no edit, write or bash until a plan is approved there.",
    o,
    bundle,
  );
