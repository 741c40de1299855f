// `plangate connect amp [--url URL] [--email EMAIL | --token TOKEN] [--timeout SECONDS] [--asks] [--check]
// [--remove]`: Amp has no plan mode, so two things make one in this project. Plangate's plugin goes into Amp's
// plugin folder (~/.config/amp/plugins, loaded for every project) and adds submit_plan; a permission delegate, the
// first rule of the project's `.amp/settings.json`, refuses every changing call until the thread's plan is
// approved on the desk (and with --asks puts each later one there). A delegate has no "no opinion": it decides
// every call it is handed, so it goes into the project's settings only, never Amp's global ones.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { AMP_PLUGIN_MARKER, ampPluginFile } from "./amp-plugin-file";
import { AMP_DELEGATE_MARKER, ampDelegatePath, ampDelegateRule, ampDelegateScript } from "./amp-delegate-file";
import { checkAmpDelegate } from "./check-amp-delegate";
import { type CarriedSpec, connectCarried } from "./connect-carried";
import { userHookRequest } from "./connect-user-hook";
import { gateProblems, rulesIn, withDelegate } from "./amp-settings";
import { parseJsonSettings } from "./json-settings";
import { readProjectFile, writeProjectFile } from "./project-file";
import { selfPath } from "./self";

/** The bundled plugin (cli/amp-plugin.ts), put in by esbuild when the CLI is built. */
declare const PLANGATE_AMP_PLUGIN: string;

const USAGE =
  "usage: plangate connect amp [--url URL] [--email EMAIL [--password-stdin] | --token TOKEN] [--timeout SECONDS] [--asks] [--check] [--remove]";

const SPEC: CarriedSpec = {
  agent: "amp",
  name: "Amp",
  usage: USAGE,
  file: () =>
    path.join(process.env.XDG_CONFIG_HOME || path.join(os.homedir(), ".config"), "amp", "plugins", "plangate.js"),
  marker: AMP_PLUGIN_MARKER,
  source: (command) => ampPluginFile(PLANGATE_AMP_PLUGIN, { command }),
  does: "Amp's submit_plan",
  asks: "its edits and commands after an approval, asked on the desk by the delegate",
  note: "start a new Amp thread to load the plugin",
};

const settingsFile = (project: string) => path.join(project, ".amp", "settings.json");

function readScript(file: string): string | undefined {
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!st) return undefined;
  const text = st.isFile() ? fs.readFileSync(file, "utf8") : "";
  if (!text.includes(AMP_DELEGATE_MARKER)) throw new Error(`${file} exists and was not written by plangate`);
  return text;
}

export async function run(args: string[]): Promise<number> {
  const r = userHookRequest(args, USAGE, 7 * 24 * 3600);
  if (typeof r === "number") return r;
  if (r.scope !== "project") {
    console.error(
      "plangate: Amp's delegate decides every call it is handed, so it is connected one project at a time (no --scope user)",
    );
    return 2;
  }
  const settings = settingsFile(r.project);
  const script = ampDelegatePath(r.project);
  const expected = ampDelegateScript({
    self: selfPath(),
    url: r.url,
    deadlineSec: r.timeoutSec - 60,
    asks: r.opts.asks === true,
  });
  const rule = ampDelegateRule(script);
  let current: { text: string; value: Record<string, unknown> };
  let text: string;
  let existing: string | undefined;
  try {
    current = parseJsonSettings(settings, readProjectFile(r.project, settings) ?? "{}");
    text = withDelegate(settings, current.text, rule, r.opts.remove === true);
    existing = readScript(script);
  } catch (error) {
    console.error(`plangate: ${error instanceof Error ? error.message : String(error)}; nothing was changed`);
    return 1;
  }
  const code = await connectCarried(SPEC, args);
  if (r.opts.check) {
    const ok = checkAmpDelegate({
      problems: gateProblems(current.value, rule),
      script,
      text: existing,
      expected,
      project: r.project,
    });
    return ok && code === 0 ? 0 : 1;
  }
  if (code !== 0) return code;
  // The script before the rule that names it, and the rule out before the script goes: a thread in between finds
  // Plangate's rule with its script, or Amp's own (a missing script would refuse every call, reads too).
  if (!r.opts.remove) {
    fs.mkdirSync(path.dirname(script), { recursive: true, mode: 0o700 });
    if (existing !== expected) fs.writeFileSync(script, expected, { mode: 0o700 });
    fs.chmodSync(script, 0o700);
  }
  if (text !== current.text) writeProjectFile(r.project, settings, text.endsWith("\n") ? text : `${text}\n`);
  if (r.opts.remove) {
    fs.rmSync(script, { force: true });
    console.log(`plangate: ${settings}: Plangate's delegate taken out`);
    return 0;
  }
  const shadowed = rulesIn(current.value).filter((x) => x.to !== rule.to).length;
  console.log(`plangate: ${settings}: the first rule hands every call to ${script}, and allow-all is off`);
  // Amp runs a repository's own plugins when it starts, before any plan, and no rule of Plangate's sees them.
  if (fs.existsSync(path.join(r.project, ".amp", "plugins")))
    console.log(
      "plangate: note: this project has .amp/plugins: Amp runs them at its start, outside Plangate's gate; read them first",
    );
  if (shadowed > 0)
    console.log(
      `plangate: note: your ${shadowed} other rule(s) there come after it and no longer decide; with --asks, changes go to the desk instead`,
    );
  return 0;
}
