// `plangate connect kilo [--url URL] [--email EMAIL | --token TOKEN] [--scope project|user] [--timeout SECONDS]
// [--asks] [--check] [--remove]`: Kilo loads plugins from its user config folder for every project, so Plangate's
// plugin goes to ~/.config/kilo/plugin/plangate.js (not into the project, which may be committed), and this project
// (or, with --scope user, every project) is recorded as connected; elsewhere the plugin stays out of the way.
import os from "node:os";
import path from "node:path";
import { connectCarried } from "./connect-carried";
import { KILO_PLUGIN_MARKER, kiloPluginFile } from "./kilo-plugin-file";

/** The bundled plugin (cli/kilo-plugin.ts), put in by esbuild when the CLI is built. */
declare const PLANGATE_KILO_PLUGIN: string;

export const kiloConfigDir = () => path.join(process.env.XDG_CONFIG_HOME || path.join(os.homedir(), ".config"), "kilo");

export const run = (args: string[]): Promise<number> =>
  connectCarried(
    {
      agent: "kilo",
      name: "Kilo",
      usage:
        "usage: plangate connect kilo [--url URL] [--email EMAIL [--password-stdin] | --token TOKEN] [--scope project|user] [--timeout SECONDS] [--asks] [--check] [--remove]",
      file: () => path.join(kiloConfigDir(), "plugin", "plangate.js"),
      marker: KILO_PLUGIN_MARKER,
      source: (command, asks) => kiloPluginFile(PLANGATE_KILO_PLUGIN, { command, asks }),
      does: "Kilo's plan_exit",
      asks: "its bash, edit and write calls asked on the desk",
      note: "restart Kilo (kilo, or kilo serve) to load the plugin; KILO_PURE=1 starts it without",
    },
    args,
  );
