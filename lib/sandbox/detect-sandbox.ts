import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { SandboxInfo } from "../tools/types";
import { bwrapArgs } from "./bwrap-args";

const FALLBACK_BWRAP = "/usr/bin/bwrap";
const CHECK_TIMEOUT_MS = 5_000;

let cached: SandboxInfo | null = null;

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function findBwrap(): string | null {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (dir === "") continue;
    const candidate = path.join(dir, "bwrap");
    if (isExecutable(candidate)) return candidate;
  }
  return isExecutable(FALLBACK_BWRAP) ? FALLBACK_BWRAP : null;
}

// Being installed is not enough: containers often forbid the namespaces bwrap needs, so run it once
// with the same options a read-only call uses. Any folder that surely exists stands in for the
// workspace; bwrap's own folder does.
function works(bwrapPath: string): boolean {
  const dir = path.dirname(bwrapPath);
  const args = [...bwrapArgs({ workspace: dir, readOnly: true, cwd: dir }), "--", "true"];
  const result = spawnSync(bwrapPath, args, { stdio: "ignore", timeout: CHECK_TIMEOUT_MS });
  return result.error === undefined && result.status === 0;
}

/** Whether bash can run under bubblewrap on this machine; computed once per process. */
export function detectSandbox(): SandboxInfo {
  if (cached !== null) return cached;
  const bwrapPath = process.env.PLANGATE_SANDBOX === "off" ? null : findBwrap();
  cached = bwrapPath !== null && works(bwrapPath) ? { available: true, bwrapPath } : { available: false, bwrapPath: null };
  return cached;
}

/** Forget the cached answer (tests that flip PLANGATE_SANDBOX). */
export function resetSandboxCache(): void {
  cached = null;
}
