import fs from "node:fs";
import path from "node:path";
import type { z } from "zod";
import { CONFIG_PATH, workspaceConfigSchema } from "../workspace/workspace-config";
import { parseUntrustedJson, readUntrustedFile } from "../workspace/read-untrusted-file";
import { claudeSettingsSchema, type ClaudeSource } from "./import-claude-settings";
import { mergeOpenCodeConfigs, opencodeConfigSchema, type OpenCodeConfig } from "./import-opencode-config";
import type { Untranslated } from "./imported-rules";
import type { WorkspaceConfigData } from "./merge-imported-config";
import { parseJsonc } from "./parse-jsonc";

/** A settings file that cannot be read as what it claims to be; the message names the file and the field. */
export class ImportSourceError extends Error {
  override name = "ImportSourceError";
}

export type ImportSources = {
  claude: ClaudeSource[];
  /** OpenCode's files merged as OpenCode merges them, or null when there are none. */
  opencode: { display: string; config: OpenCodeConfig } | null;
  /** Files found but not read (agents written in Markdown). */
  unread: Untranslated[];
};

type Issue = z.core.$ZodIssue;

/** `permissions.allow[2]`, `permission.bash["git *"]`. */
export function formatPath(keys: readonly PropertyKey[]): string {
  let out = "";
  for (const k of keys) {
    if (typeof k === "number") out += `[${k}]`;
    else if (typeof k === "string" && /^[A-Za-z_$][\w$-]*$/.test(k)) out += out === "" ? k : `.${k}`;
    else out += `[${JSON.stringify(String(k))}]`;
  }
  return out === "" ? "(the whole file)" : out;
}

/** zod reports a failed union at the union; the branch that got furthest says more. */
function deepest(issue: Issue, base: readonly PropertyKey[]): { path: PropertyKey[]; message: string } {
  const here = [...base, ...issue.path];
  let best = { path: here, message: issue.message };
  if (issue.code === "invalid_union") {
    for (const branch of issue.errors) {
      for (const sub of branch) {
        const d = deepest(sub, here);
        if (d.path.length > best.path.length) best = d;
      }
    }
  }
  return best;
}

/** A settings file's text (null when there is none), read as untrusted; a refusal names the file and why. */
function readText(root: string, relative: string, display: string): string | null {
  const got = readUntrustedFile(root, relative, { display });
  if (got.status === "missing") return null;
  if (got.status === "refused") throw new ImportSourceError(got.reason);
  return got.bytes.toString("utf8");
}

function readValidated<T>(root: string, relative: string, display: string, schema: z.ZodType<T>): T | null {
  const text = readText(root, relative, display);
  if (text === null) return null;
  let data: unknown;
  try {
    data = parseJsonc(text);
  } catch (error) {
    throw new ImportSourceError(
      `${display}: not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  const d = first ? deepest(first, []) : { path: [], message: "invalid" };
  throw new ImportSourceError(`${display}: ${formatPath(d.path)}: ${d.message}`);
}

const OPENCODE_FILES = ["opencode.jsonc", "opencode.json", ".opencode/opencode.jsonc", ".opencode/opencode.json"];
const AGENT_FOLDERS = [".opencode/agent", ".opencode/agents"];

/**
 * The settings of Claude Code (`.claude/settings.json`, `.claude/settings.local.json`, and with `user` the
 * user's `~/.claude/settings.json`) and of OpenCode (`opencode.json(c)`, `.opencode/opencode.json(c)`) in a
 * workspace, each validated. Throws ImportSourceError on the first malformed file.
 */
export function readImportSources(workspace: string, opts: { user: boolean; home: string }): ImportSources {
  const claudeFiles = [
    ...(opts.user
      ? [
          {
            relative: path.join(".claude", "settings.json"),
            display: "~/.claude/settings.json",
            root: opts.home,
          },
        ]
      : []),
    { relative: path.join(".claude", "settings.json"), display: ".claude/settings.json", root: workspace },
    { relative: path.join(".claude", "settings.local.json"), display: ".claude/settings.local.json", root: workspace },
  ];
  const claude: ClaudeSource[] = [];
  for (const f of claudeFiles) {
    const settings = readValidated(f.root, f.relative, f.display, claudeSettingsSchema);
    if (settings !== null) claude.push({ display: f.display, settingsRoot: f.root, settings });
  }

  const found: { display: string; config: OpenCodeConfig }[] = [];
  for (const rel of OPENCODE_FILES) {
    const config = readValidated(workspace, rel, rel, opencodeConfigSchema);
    if (config !== null) found.push({ display: rel, config });
  }
  const opencode =
    found.length === 0
      ? null
      : { display: found.map((f) => f.display).join(" + "), config: mergeOpenCodeConfigs(found.map((f) => f.config)) };

  const unread: Untranslated[] = [];
  for (const folder of AGENT_FOLDERS) {
    let names: string[];
    try {
      names = fs
        .readdirSync(path.join(workspace, folder))
        .filter((n) => n.endsWith(".md"))
        .sort();
    } catch {
      continue;
    }
    for (const name of names) {
      const text = readText(workspace, `${folder}/${name}`, `${folder}/${name}`) ?? "";
      if (!/^permission\s*:/m.test(text)) continue;
      unread.push({
        source: `${folder}/${name}`,
        rule: `agent ${name.slice(0, -3)}`,
        reason:
          "agents written in Markdown are not read (their YAML front matter); put the permission block in opencode.json under agent.<name>.permission",
      });
    }
  }
  return { claude, opencode, unread };
}

/**
 * The workspace's `.plangate/config.json` as it is now (text and validated content; empty when there is none).
 * It is read the way Plangate's own loader reads it (strict JSON, the same schema): a config Plangate would
 * refuse is not merged into, the person fixes it first.
 */
export function readExistingConfig(workspace: string): { text: string | null; config: WorkspaceConfigData } {
  const text = readText(workspace, CONFIG_PATH, CONFIG_PATH);
  if (text === null) return { text: null, config: {} };
  const json = parseUntrustedJson(text, CONFIG_PATH);
  if (!json.ok) throw new ImportSourceError(`${json.reason}; fix it before importing`);
  const parsed = workspaceConfigSchema.safeParse(json.value);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const d = first ? deepest(first, []) : { path: [], message: "invalid" };
    throw new ImportSourceError(`${CONFIG_PATH}: ${formatPath(d.path)}: ${d.message}; fix it before importing`);
  }
  return { text, config: parsed.data };
}
