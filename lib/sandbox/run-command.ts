import { spawn, type ChildProcess } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { getEnv } from "../env";
import { MAX_OUTPUT_CHARS, ToolError, type SandboxInfo } from "../session/log/tool-types";
import path from "node:path";
import { attachNetwork, endNetwork } from "./attach-network";
import { bwrapArgs, type SandboxProfile } from "./bwrap-args";
import { holdControlGuard, type HeldGuard } from "./guard-controls";
import { holdHeldPaths, type HeldPathGuard } from "./guard-held";
import type { HeldLocations } from "./held-locations";
import { hiddenServerFiles } from "./server-files";
import { commandEnv } from "./command-env";
import { ETC_ENTRIES, filterExtraRead, hiddenRoots, hostView } from "./host-view";
import { isReadOnlyCommand } from "./read-only-commands";

export const DEFAULT_TIMEOUT_MS = 120_000;
export const MAX_TIMEOUT_MS = 600_000;
/** How long to wait for the pipes to close after the shell exited before giving up on them. */
const DRAIN_MS = 2_000;

export type RunCommandInput = {
  command: string;
  cwd: string;
  workspace: string;
  /** What the command may do: write the workspace or not, reach the network or not. */
  profile: SandboxProfile;
  /** A person approved this exact command: control files stay writable and git uses the repository's settings. */
  asWritten?: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
  sandbox: SandboxInfo;
  /** Host folders a trusted workspace config asks commands to see (filtered here: never home folders or Plangate's data). */
  extraRead?: readonly string[];
  /**
   * Where the review policy's held paths are (issue 41, lib/sandbox/held-locations): for every command that may
   * write, however it was allowed (as written, bypassPermissions), the existing ones are read-only with their
   * parents pinned, and whatever appears at one is quarantined after. Only what an owner released is left out.
   */
  held?: HeldLocations;
};

export type RunCommandResult = {
  exitCode: number | null;
  output: string;
  timedOut: boolean;
  truncated: boolean;
  sandboxed: boolean;
  profile: SandboxProfile;
  /** Control files the command created where none existed (workspace-relative): removed, and the call refused. */
  planted: string[];
  /** Held locations (workspace-relative) the command changed or created: what stands there quarantined, the call refused. */
  heldWritten?: string[];
};

// Fd 5 of every command is its lifeline: a pipe whose other end only this server holds and never writes, so it
// reads as EOF once the server is gone, even after kill -9. bwrap's --die-with-parent is armed only after bwrap
// has started and is never armed if the server died before that, which let a command the log reports as
// interrupted still run. So the wrapper refuses to start when the lifeline is already at EOF, and a background
// watch kills the command's process group when it reaches EOF later (without bwrap too).
const LIFELINE_FD = 5;
// The outer bash points stderr at stdout before running the command, so both share one pipe and
// keep the order they were written in; the command still runs as its own `bash -c`, untouched.
const MERGE_STREAMS =
  `exec 2>&1; if read -t 0 -u ${LIFELINE_FD}; then exit 137; fi; printf s >&${LIFELINE_FD}; ` +
  `{ while read -r -u ${LIFELINE_FD} _; do :; done; kill -KILL 0; } </dev/null >/dev/null 2>&1 & ` +
  `exec bash -c "$1" ${LIFELINE_FD}<&-`;

/** Keeps the first and last part of a long output, counting what falls in between. */
class HeadTail {
  private head = "";
  private tail = "";
  private total = 0;
  constructor(private readonly half: number) {}

  push(chunk: string): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.head.length < this.half) {
      const room = this.half - this.head.length;
      this.head += rest.slice(0, room);
      rest = rest.slice(room);
    }
    if (rest.length === 0) return;
    this.tail += rest;
    if (this.tail.length > this.half * 2) this.tail = this.tail.slice(-this.half);
  }

  result(): { text: string; truncated: boolean } {
    if (this.total <= this.half * 2) return { text: this.head + this.tail, truncated: false };
    let head = this.head;
    let tail = this.tail.slice(-this.half);
    // Never keep half of a surrogate pair at either cut.
    if (/[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
    if (/^[\uDC00-\uDFFF]/.test(tail)) tail = tail.slice(1);
    const omitted = this.total - head.length - tail.length;
    return { text: `${head}\n… ${omitted} characters omitted …\n${tail}`, truncated: true };
  }
}

function clampTimeout(ms: number | undefined): number {
  if (ms === undefined || !Number.isFinite(ms)) return DEFAULT_TIMEOUT_MS;
  return Math.min(Math.max(Math.floor(ms), 1), MAX_TIMEOUT_MS);
}

/** Read-only extras from the server's settings (trusted) and from a trusted workspace config (filtered). */
function extraReads(requested: readonly string[]): string[] {
  const env = getEnv();
  const { kept } = filterExtraRead(requested, hiddenRoots(env.dataDir, env.workspaceRoots));
  return [...hostView().extraRead, ...env.sandboxRead, ...kept];
}

/** The guards one command runs under: the control files' (unless a person approved its text) and the held paths'. */
type Guards = { controls: HeldGuard | null; held: HeldPathGuard | null };

function sandboxCommand(
  input: RunCommandInput,
  bwrapPath: string,
  network: boolean,
  guards: Guards,
): [string, string[]] {
  const view = hostView();
  const env = getEnv();
  const extraRead = extraReads(input.extraRead ?? []);
  const shown = [...view.system.filter((e) => e.symlink === null).map((e) => e.path), ...extraRead, input.workspace];
  const guard = guards.controls?.guard;
  const held = guards.held;
  // Outer folders first: a pin inside another is bound after it.
  const heldPins = [...(held?.pin ?? [])].sort((a, b) => a.length - b.length);
  const args = bwrapArgs({
    workspace: input.workspace,
    cwd: input.cwd,
    profile: input.profile,
    system: view.system,
    etc: ETC_ENTRIES,
    extraRead,
    protect: [...(guard?.readOnly ?? []), ...(held?.protect ?? [])],
    pin: [...heldPins, ...(guard?.pin ?? [])],
    cover: { empty: view.emptyDir, paths: guard?.cover ?? [] },
    emptyFile: view.emptyFile,
    hide: hiddenServerFiles(
      { dataDir: env.dataDir, databaseUrl: env.DATABASE_URL, checkout: process.cwd() },
      input.workspace,
      shown,
    ),
    ...(network ? { resolvConf: view.resolvConf, infoFd: 3, blockFd: 4 } : {}),
  });
  return [bwrapPath, [...args, "--", "bash", "-c", MERGE_STREAMS, "bash", input.command]];
}

/**
 * Runs `bash -c command` under bubblewrap (when available) with stdin from /dev/null and stdout+stderr
 * merged, in the profile the gate granted. On timeout or abort the whole process group is killed. A sandbox
 * that failed to set itself up (bwrap exits before the wrapper says it started, e.g. "loopback: Failed
 * RTM_NEWADDR" on a busy host) ran nothing, so it is tried once more; a command that started never is.
 */
export async function runCommand(input: RunCommandInput): Promise<RunCommandResult> {
  // A command that may write, without a person's approval of its exact text, may not plant control files: what
  // exists is read-only, missing folders are covered, and missing files are checked once it has ended.
  const guarded = input.profile.write && input.asWritten !== true;
  const quarantine = path.join(getEnv().dataDir, "quarantine");
  const guards: Guards = {
    controls: guarded ? holdControlGuard(input.workspace, quarantine) : null,
    held: input.profile.write && input.held ? holdHeldPaths(input.workspace, input.held, quarantine) : null,
  };
  try {
    const first = await runOnce(input, guards);
    if (
      first.started ||
      !first.result.sandboxed ||
      first.result.exitCode === 0 ||
      first.result.timedOut ||
      input.signal?.aborted
    )
      return withPlanted(first.result, guards);
    return withPlanted((await runOnce(input, guards)).result, guards);
  } finally {
    guards.controls?.release();
    guards.held?.release();
  }
}

function withPlanted(result: RunCommandResult, guards: Guards): RunCommandResult {
  const planted = guards.controls?.release() ?? [];
  const heldWritten = guards.held?.release() ?? [];
  return {
    ...result,
    ...(planted.length > 0 ? { planted } : {}),
    ...(heldWritten.length > 0 ? { heldWritten } : {}),
  };
}

async function runOnce(
  input: RunCommandInput,
  guards: Guards,
): Promise<{ result: RunCommandResult; started: boolean }> {
  const bwrapPath = input.sandbox.available ? input.sandbox.bwrapPath : null;
  const sandboxed = bwrapPath !== null;
  if (!input.profile.write && !sandboxed) {
    // Defense in depth: the caller should already have refused, but nothing may write unsandboxed.
    const verdict = isReadOnlyCommand(input.command, { confined: true });
    if (!verdict.ok) throw new ToolError(`Refused: no sandbox is available and ${verdict.reason}.`);
  }
  const network = sandboxed && input.profile.network;
  if (network && !input.sandbox.slirpPath) {
    throw new ToolError(
      "This command was allowed the network, but slirp4netns is not installed, so the sandbox cannot give it one safely.",
    );
  }
  const result: RunCommandResult = {
    exitCode: null,
    output: "",
    timedOut: false,
    truncated: false,
    sandboxed,
    profile: input.profile,
    planted: [],
  };
  if (input.signal?.aborted) return { result, started: false };

  const [file, args] =
    bwrapPath === null
      ? ["bash", ["-c", MERGE_STREAMS, "bash", input.command]]
      : sandboxCommand(input, bwrapPath, network, guards);
  const env = commandEnv({
    write: input.profile.write,
    asWritten: input.asWritten === true,
    extraNames: getEnv().sandboxEnv,
  });
  // detached = a new session, so the process group id is the child's pid and one kill reaches it all.
  const stdio = network
    ? (["ignore", "pipe", "pipe", "pipe", "pipe", "pipe"] as const)
    : (["ignore", "pipe", "pipe", "ignore", "ignore", "pipe"] as const);
  const child = spawn(file, args, {
    cwd: input.cwd,
    env: env as NodeJS.ProcessEnv,
    stdio: [...stdio],
    detached: true,
  }) as ChildProcess & { stdout: Readable; stderr: Readable };
  // The wrapper writes one byte on its lifeline once it runs inside the sandbox: from then on the command may have run.
  let started = false;
  (child.stdio as unknown as (Readable | null)[])[LIFELINE_FD]?.once("data", () => (started = true));
  let slirp: ChildProcess | null = null;
  if (network) {
    try {
      slirp = await attachNetwork(
        input.sandbox.slirpPath as string,
        child,
        child.stdio[3] as Readable,
        child.stdio[4] as Writable,
      );
    } catch (error) {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
      throw error;
    }
  }

  const output = new HeadTail(Math.floor((MAX_OUTPUT_CHARS - 100) / 2));
  for (const stream of [child.stdout, child.stderr]) {
    const decoder = new StringDecoder("utf8");
    stream.on("data", (chunk: Buffer) => output.push(decoder.write(chunk)));
    stream.on("end", () => output.push(decoder.end()));
  }

  const killGroup = () => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  };
  const onAbort = () => killGroup();
  input.signal?.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(() => {
    result.timedOut = true;
    killGroup();
  }, clampTimeout(input.timeoutMs));

  try {
    const exitCode = await new Promise<number | null>((resolve, reject) => {
      let drain: NodeJS.Timeout | undefined;
      child.once("error", (err) => reject(new ToolError(`Could not start the command: ${err.message}`)));
      child.once("exit", (code) => {
        // Background jobs left behind would hold the pipes open; the sandbox's pid namespace ends
        // them anyway, so end them without a sandbox too, and stop waiting after a grace period.
        killGroup();
        drain = setTimeout(() => {
          child.stdout.destroy();
          child.stderr.destroy();
          resolve(code);
        }, DRAIN_MS);
      });
      child.once("close", (code) => {
        clearTimeout(drain);
        resolve(code);
      });
    });
    const { text, truncated } = output.result();
    return { result: { ...result, exitCode, output: text, truncated }, started };
  } finally {
    (child.stdio as unknown as (Readable | null)[])[LIFELINE_FD]?.destroy();
    clearTimeout(timer);
    input.signal?.removeEventListener("abort", onAbort);
    if (slirp) endNetwork(slirp);
  }
}
