// `plangate connect cline [--url URL] [--email EMAIL | --token TOKEN] [--scope project|user] [--check] [--remove]`:
// Cline loads plugins from ~/.cline/plugins for every project, so Plangate's plugin goes there (not into the
// project, which may be committed), and this project (or, with --scope user, every project) is recorded as
// connected; elsewhere the plugin stays out of the way.
import os from "node:os";
import path from "node:path";
import { CLINE_WAIT_SEC } from "../lib/external/cline-hook";
import { connectCarried } from "./connect-carried";
import { CLINE_PLUGIN_MARKER, clinePluginFile } from "./cline-plugin-file";

/** The bundled plugin (cli/cline-plugin.ts), put in by esbuild when the CLI is built. */
declare const PLANGATE_CLINE_PLUGIN: string;

export const run = (args: string[]): Promise<number> =>
  connectCarried(
    {
      agent: "cline",
      name: "Cline",
      usage:
        "usage: plangate connect cline [--url URL] [--email EMAIL [--password-stdin] | --token TOKEN] [--scope project|user] [--check] [--remove]",
      file: () => path.join(os.homedir(), ".cline", "plugins", "plangate.js"),
      marker: CLINE_PLUGIN_MARKER,
      source: (command) => clinePluginFile(PLANGATE_CLINE_PLUGIN, { command }),
      does: "Cline's plan mode (submit_plan)",
      asks: { refused: "Cline gives a plugin's beforeTool 3 s, too short for a person to answer an ask" },
      // Cline gives a plugin tool 60 s; the model calls submit_plan again while the plan waits.
      deadlineSec: CLINE_WAIT_SEC,
      note: "start a new Cline session to load the plugin",
    },
    args,
  );
