// `plangate import-config`: brings a workspace's Claude Code and OpenCode permission rules into .plangate/config.json.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline/promises";
import { createTwoFilesPatch } from "diff";
import { buildConfigImport, type ConfigImport } from "../lib/config/build-config-import";
import { ImportSourceError, readExistingConfig, readImportSources } from "../lib/config/read-import-sources";
import { CONFIG_PATH } from "../lib/workspace/workspace-config";
import { type Options, options, UsageError } from "./options";
import { readProjectFile, writeProjectFile } from "./project-file";

const USAGE = `usage: plangate import-config [--workspace DIR] [--write] [--user] [--json]

Reads the permission rules of Claude Code (.claude/settings.json, .claude/settings.local.json; with --user
also ~/.claude/settings.json) and OpenCode (opencode.json(c), .opencode/opencode.json(c)) in the workspace
(default: the current folder), shows ${CONFIG_PATH} as it would be after merging them in, the diff, and what
could not be translated. It writes only with --write (or when you answer y on a terminal).

  --workspace DIR  the workspace folder
  --write          write ${CONFIG_PATH} without asking
  --user           also read ~/.claude/settings.json
  --json           print the result as JSON (never asks)`;

type Args = { workspace: string; write: boolean; user: boolean; json: boolean };

const OPTIONS = {
  workspace: { type: "string" },
  write: { type: "boolean" },
  user: { type: "boolean" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

function readArgs(args: readonly string[]): Args | { help: true } | { error: string } {
  let opts: Options<typeof OPTIONS>;
  try {
    opts = options(args, OPTIONS);
  } catch (error) {
    if (error instanceof UsageError) return { error: error.message };
    throw error;
  }
  if (opts.help) return { help: true };
  // An empty value would silently mean the current folder.
  if (opts.workspace === "") return { error: "--workspace needs a folder" };
  return {
    workspace: opts.workspace ?? process.cwd(),
    write: opts.write === true,
    user: opts.user === true,
    json: opts.json === true,
  };
}

function report(r: ConfigImport, diff: string): string[] {
  const lines: string[] = [
    `Read: ${r.sources.length > 0 ? r.sources.join(", ") : "no settings file"}`,
    `Translated ${r.translated} rule${r.translated === 1 ? "" : "s"}.`,
    "",
  ];
  if (r.changed) {
    lines.push(
      `${CONFIG_PATH} after the import:`,
      JSON.stringify(r.config, null, 2),
      "",
      "Changes:",
      diff.trimEnd(),
      "",
    );
  } else {
    lines.push(`Nothing to change: ${CONFIG_PATH} already has these rules.`, "");
  }
  if (r.conflicts.length > 0) {
    lines.push(
      "Conflicts (the merged config answers otherwise than a source on its own; existing rules win, then Claude Code's, then OpenCode's):",
    );
    for (const c of r.conflicts) {
      const scope = c.scope === "permission" ? "" : `${c.scope}: `;
      const why = c.decided.from.startsWith("workspace-wide")
        ? " (Plangate lays the workspace-wide rules over an agent's own)"
        : "";
      lines.push(
        `  - ${scope}${c.permission} "${c.input}": ${c.wanted.from} says ${c.wanted.action} (${c.wanted.rule}); ${c.decided.from} answers ${c.decided.action} (${c.decided.rule})${why}`,
      );
    }
    lines.push("");
  }
  if (r.untranslated.length > 0) {
    lines.push("Not translated:");
    for (const u of r.untranslated) lines.push(`  - ${u.source}: ${u.rule}: ${u.reason}`);
    lines.push("");
  }
  if (r.notes.length > 0) {
    lines.push("Notes:");
    for (const n of r.notes) lines.push(`  - ${n.source}: ${n.rule}: ${n.note}`);
    lines.push("");
  }
  return lines;
}

async function confirm(): Promise<boolean> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await rl.question(`Write ${CONFIG_PATH}? [y/N] `)).trim());
  } finally {
    rl.close();
  }
}

/** Replaces the file in one rename (never through a link), and only if it is still what was read. */
function writeConfig(workspace: string, before: string | null, text: string): void {
  const file = path.join(workspace, CONFIG_PATH);
  let now: string | null;
  try {
    now = readProjectFile(workspace, file) ?? null;
  } catch (error) {
    throw new ImportSourceError(error instanceof Error ? error.message : String(error));
  }
  if (now !== before) throw new ImportSourceError(`${CONFIG_PATH} changed while this ran; run the import again`);
  try {
    writeProjectFile(workspace, file, text);
  } catch (error) {
    throw new ImportSourceError(error instanceof Error ? error.message : String(error));
  }
}

export async function run(args: string[]): Promise<number> {
  const parsed = readArgs(args);
  if ("help" in parsed) {
    console.log(USAGE);
    return 0;
  }
  if ("error" in parsed) {
    console.error(`plangate import-config: ${parsed.error}\n${USAGE}`);
    return 2;
  }
  let workspace: string;
  try {
    workspace = fs.realpathSync(path.resolve(parsed.workspace));
    if (!fs.statSync(workspace).isDirectory()) throw new Error("not a folder");
  } catch {
    console.error(`plangate import-config: ${parsed.workspace} is not a folder`);
    return 1;
  }
  const home = os.homedir();
  try {
    const read = readImportSources(workspace, { user: parsed.user, home });
    const existing = readExistingConfig(workspace);
    const result = buildConfigImport(read, existing.config, { workspace, home });
    const text = `${JSON.stringify(result.config, null, 2)}\n`;
    const diff = result.changed
      ? createTwoFilesPatch(
          CONFIG_PATH,
          CONFIG_PATH,
          existing.text ?? "",
          text,
          existing.text === null ? "(no file yet)" : "now",
          "after the import",
        )
      : "";
    const found = result.sources.length > 0 || result.untranslated.length > 0;
    let written = false;
    if (!parsed.json) {
      console.log(`plangate import-config: ${workspace}`);
      if (!found)
        console.log(
          "No Claude Code or OpenCode settings found (.claude/settings.json, .claude/settings.local.json, opencode.json(c), .opencode/).",
        );
      else console.log(report(result, diff).join("\n"));
    }
    if (
      result.changed &&
      (parsed.write ||
        (!parsed.json && process.stdin.isTTY === true && process.stdout.isTTY === true && (await confirm())))
    ) {
      writeConfig(workspace, existing.text, text);
      written = true;
    }
    if (parsed.json) {
      console.log(JSON.stringify({ workspace, ...result, diff, written }, null, 2));
    } else if (result.changed) {
      console.log(
        written
          ? `Wrote ${CONFIG_PATH}. Its allow rules apply only once a person trusts this content in Plangate (the session page's "Trust this config" card, or /workspace?path=${encodeURIComponent(workspace)}); its deny and ask rules apply now.`
          : `Not written: run again with --write to write ${CONFIG_PATH}.`,
      );
    }
    return 0;
  } catch (error) {
    if (!(error instanceof ImportSourceError)) throw error;
    console.error(`plangate import-config: ${error.message}\nNothing was written.`);
    return 1;
  }
}
