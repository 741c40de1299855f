import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { SandboxInfo } from "../session/log/tool-types";
import { bwrapArgs } from "./bwrap-args";
import { ETC_ENTRIES, hostView } from "./host-view";
import { envValue } from "../env";

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

/** A program on PATH, else in /usr/bin. */
export function findProgram(name: string): string | null {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (dir === "") continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  const fallback = path.join("/usr/bin", name);
  return isExecutable(fallback) ? fallback : null;
}

// Being installed is not enough: containers often forbid the namespaces bwrap needs, so run it once
// with the same options a read-only call uses. Any folder that surely exists stands in for the
// workspace; bwrap's own folder does.
function works(bwrapPath: string): boolean {
  const dir = path.dirname(bwrapPath);
  const view = hostView();
  const options = {
    workspace: dir,
    cwd: dir,
    profile: { write: false, network: false },
    system: view.system,
    etc: ETC_ENTRIES,
    extraRead: view.extraRead,
  };
  const result = spawnSync(bwrapPath, [...bwrapArgs(options), "--", "true"], {
    stdio: "ignore",
    timeout: CHECK_TIMEOUT_MS,
  });
  return result.error === undefined && result.status === 0;
}

/**
 * Whether bash can run under bubblewrap on this machine, and whether slirp4netns can give a sandboxed
 * command a network of its own; computed once per process.
 */
export function detectSandbox(): SandboxInfo {
  if (cached !== null) return cached;
  const bwrapPath = envValue("PLANGATE_SANDBOX") === "off" ? null : findProgram("bwrap");
  if (bwrapPath !== null && works(bwrapPath)) {
    cached = { available: true, bwrapPath, slirpPath: findProgram("slirp4netns") };
  } else {
    cached = { available: false, bwrapPath: null, slirpPath: null };
  }
  return cached;
}

/** Forget the cached answer (tests that flip PLANGATE_SANDBOX). */
export function resetSandboxCache(): void {
  cached = null;
}
