// `plangate connect pi [--url URL] [--email EMAIL | --token TOKEN] [--scope project|user] [--timeout SECONDS] [--asks]
// [--check] [--remove]`: pi loads extensions from ~/.pi/agent/extensions (a project's own .pi/extensions only when
// pi starts in exactly that folder), so Plangate's extension goes there, and this project (or, with --scope user,
// every project) is recorded as connected; elsewhere the extension stays out of the way.
import os from "node:os";
import path from "node:path";
import { connectCarried } from "./connect-carried";
import { PI_EXTENSION_MARKER, piExtensionFile } from "./pi-extension-file";

/** The bundled extension (cli/pi-extension.ts), put in by esbuild when the CLI is built. */
declare const PLANGATE_PI_EXTENSION: string;

export const run = (args: string[]): Promise<number> =>
  connectCarried(
    {
      agent: "pi",
      name: "pi",
      usage:
        "usage: plangate connect pi [--url URL] [--email EMAIL [--password-stdin] | --token TOKEN] [--scope project|user] [--timeout SECONDS] [--asks] [--check] [--remove]",
      file: () =>
        path.join(
          process.env.PI_CODING_AGENT_DIR || path.join(os.homedir(), ".pi", "agent"),
          "extensions",
          "plangate.js",
        ),
      marker: PI_EXTENSION_MARKER,
      source: (command, asks) => piExtensionFile(PLANGATE_PI_EXTENSION, { command, asks }),
      does: "pi's plan mode",
      asks: "its edit, write and bash calls after an approval asked on the desk",
      note: "restart pi to load the extension; `pi -ne` starts it without",
    },
    args,
  );
