// `plangate connect opencode [--url URL] [--token TOKEN] [--remove]`: writes (or takes out)
// <cwd>/.opencode/plugin/plangate.js, the plugin that sends OpenCode's plans (plan_exit) to Plangate's desk, and
// prints what changed. The token is never written into the project (it may be committed): it is saved for the
// URL in ~/.config/plangate/credentials.json, where the plugin reads it (or PLANGATE_TOKEN).
import fs from "node:fs";
import path from "node:path";
import { callServer } from "./client";
import { provideToken, TOKEN_OPTIONS } from "./agent-token";
import { OPENCODE_PLUGIN_MARKER, opencodePluginFile } from "./opencode-plugin-file";
import { optionsOrUsage } from "./options";
import { readProjectFile, urlOption, writeProjectFile } from "./project-file";

/** The bundled plugin (cli/opencode-plugin.ts), put in by esbuild when the CLI is built. */
declare const PLANGATE_OPENCODE_PLUGIN: string;

const USAGE =
  "usage: plangate connect opencode [--url URL] [--email EMAIL [--password-stdin] | --token TOKEN] [--remove]";
const OPTIONS = { url: { type: "string" }, ...TOKEN_OPTIONS, remove: { type: "boolean" } } as const;

export async function run(args: string[]): Promise<number> {
  const opts = optionsOrUsage(args, OPTIONS, USAGE);
  if (opts === null) return 2;
  if (opts.url === "" || opts.token === "" || opts.email === "") {
    console.error(USAGE);
    return 2;
  }
  const url = urlOption(opts.url);
  if (url === null) return 2;
  // The project is a repository: a link planted at .opencode or the plugin's name is refused, never written through.
  const root = fs.realpathSync(process.cwd());
  const file = path.join(root, ".opencode", "plugin", "plangate.js");
  let existing: string | undefined;
  try {
    existing = readProjectFile(root, file);
  } catch (error) {
    console.error(`plangate: ${error instanceof Error ? error.message : String(error)}; nothing was changed`);
    return 1;
  }
  if (existing !== undefined && !existing.startsWith(OPENCODE_PLUGIN_MARKER)) {
    console.error(`plangate: ${file} exists and was not written by plangate; nothing was changed`);
    return 1;
  }

  if (opts.remove) {
    if (existing === undefined) {
      console.log(`plangate: ${file} does not exist; nothing changed`);
      return 0;
    }
    fs.rmSync(file);
    const dir = path.dirname(file);
    if (fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
    console.log(`plangate: removed ${file}`);
    return 0;
  }

  let told: string[];
  try {
    told = await provideToken(url, "opencode", opts);
  } catch (error) {
    console.error(`plangate: ${error instanceof Error ? error.message : String(error)}; nothing was changed`);
    return 1;
  }
  const source = opencodePluginFile(PLANGATE_OPENCODE_PLUGIN, { url });
  if (existing === source) console.log(`plangate: ${file} is already up to date; nothing changed`);
  else {
    writeProjectFile(root, file, source);
    console.log(`plangate: ${existing === undefined ? "wrote" : "updated"} ${file}: OpenCode's plan_exit → ${url}`);
  }
  for (const line of told) console.log(`plangate: ${line}`);
  console.log(
    "plangate: OpenCode's plan mode needs OPENCODE_EXPERIMENTAL_PLAN_MODE=1 in its environment (restart OpenCode to load the plugin)",
  );
  const health = await callServer(url, "GET", "/api/health").catch(() => null);
  if (!health || health.status !== 200)
    console.log(
      `plangate: note: ${url} does not answer yet; start Plangate (npm start) before OpenCode finishes a plan`,
    );
  return 0;
}
