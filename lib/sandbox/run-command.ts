import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { StringDecoder } from "node:string_decoder";
import { MAX_OUTPUT_CHARS, ToolError, type SandboxInfo } from "../tools/types";
import { bwrapArgs } from "./bwrap-args";
import { isReadOnlyCommand } from "./read-only-commands";

export const DEFAULT_TIMEOUT_MS = 120_000;
export const MAX_TIMEOUT_MS = 600_000;
/** How long to wait for the pipes to close after the shell exited before giving up on them. */
const DRAIN_MS = 2_000;

export type RunCommandInput = {
  command: string;
  cwd: string;
  workspace: string;
  readOnly: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
  sandbox: SandboxInfo;
};

export type RunCommandResult = {
  exitCode: number | null;
  output: string;
  timedOut: boolean;
  truncated: boolean;
  sandboxed: boolean;
};

// The outer bash points stderr at stdout before running the command, so both share one pipe and
// keep the order they were written in; the command still runs as its own `bash -c`, untouched.
const MERGE_STREAMS = 'exec 2>&1; exec bash -c "$1"';

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

// The model's commands must not read the server's secrets (tokens, API keys, database URL) from the environment.
const SECRET_ENV = /(TOKEN|SECRET|PASSWORD|API_KEY|APIKEY|CREDENTIAL|PRIVATE_KEY)|^(DATABASE_URL|PLANGATE_)/i;

export function commandEnv(readOnly: boolean, sandboxed: boolean): Record<string, string | undefined> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !SECRET_ENV.test(key)));
  const env: Record<string, string | undefined> = { ...inherited, GIT_PAGER: "cat", PAGER: "cat", GIT_TERMINAL_PROMPT: "0" };
  const gitConfig = path.join(os.homedir(), ".gitconfig");
  // HOME moves into the sandbox's /tmp; keep the user's git identity readable so commits still work.
  if (sandboxed && env.GIT_CONFIG_GLOBAL === undefined && fs.existsSync(gitConfig)) env.GIT_CONFIG_GLOBAL = gitConfig;
  if (readOnly) {
    // git status would otherwise refresh .git/index; BASH_ENV would be sourced by `bash -c`.
    env.GIT_OPTIONAL_LOCKS = "0";
    delete env.BASH_ENV;
    delete env.ENV;
  }
  return env;
}

function clampTimeout(ms: number | undefined): number {
  if (ms === undefined || !Number.isFinite(ms)) return DEFAULT_TIMEOUT_MS;
  return Math.min(Math.max(Math.floor(ms), 1), MAX_TIMEOUT_MS);
}

/**
 * Runs `bash -c command` (under bubblewrap when available) with stdin from /dev/null and
 * stdout+stderr merged. On timeout or abort the whole process group is killed.
 */
export async function runCommand(input: RunCommandInput): Promise<RunCommandResult> {
  const bwrapPath = input.sandbox.available ? input.sandbox.bwrapPath : null;
  const sandboxed = bwrapPath !== null;
  if (input.readOnly && !sandboxed) {
    // Defense in depth: the caller should already have refused, but nothing may write unsandboxed.
    const verdict = isReadOnlyCommand(input.command);
    if (!verdict.ok) throw new ToolError(`Refused: no sandbox is available in read-only mode and ${verdict.reason}.`);
  }
  const result: RunCommandResult = { exitCode: null, output: "", timedOut: false, truncated: false, sandboxed };
  if (input.signal?.aborted) return result;

  const bash = ["-c", MERGE_STREAMS, "bash", input.command];
  const sandboxArgs = bwrapArgs({ workspace: input.workspace, readOnly: input.readOnly, cwd: input.cwd });
  const [file, args] = bwrapPath === null ? ["bash", bash] : [bwrapPath, [...sandboxArgs, "--", "bash", ...bash]];
  // detached = a new session, so the process group id is the child's pid and one kill reaches it all.
  const child = spawn(file, args, { cwd: input.cwd, env: commandEnv(input.readOnly, sandboxed) as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"], detached: true });

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
    return { ...result, exitCode, output: text, truncated };
  } finally {
    clearTimeout(timer);
    input.signal?.removeEventListener("abort", onAbort);
  }
}
