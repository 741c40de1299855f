// Whether Plangate's Cline plugin is running for a conversation: its `beforeRun` marks it (Cline runs that hook
// only when its plugins loaded), with the Cline process both it and the PreToolUse command hook were started by, so
// the backstop hook (cli/hook-cline-tools.ts) leaves the gate to the plugin only while that very plugin runs. A mark
// from an earlier process, or none, means the plugin is not there.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { configDir } from "./client";

const markFile = (conversationId: string) =>
  path.join(
    configDir(),
    "state",
    `cline-live-${createHash("sha256").update(conversationId).digest("hex").slice(0, 32)}.json`,
  );

export function markLive(conversationId: string): void {
  const file = markFile(conversationId);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, JSON.stringify({ cline: process.ppid }), { mode: 0o600 });
}

export function isLive(conversationId: string): boolean {
  try {
    const mark = JSON.parse(fs.readFileSync(markFile(conversationId), "utf8")) as { cline?: unknown };
    return mark.cline === process.ppid;
  } catch {
    return false;
  }
}
