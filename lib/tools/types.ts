import type { z } from "zod";
import type { PermissionMode } from "../permission";
import type { PermissionAsk, SandboxInfo } from "../session/log/tool-types";

export { MAX_OUTPUT_CHARS, ToolError, type PermissionAsk, type SandboxInfo } from "../session/log/tool-types";
import type { Db } from "../db/client";
import type { TeamMembership } from "../session/log/fold";
import type { StartSession } from "../team/spawn-teammate";

/** Everything a tool may know about the call it is running for. */
export type ToolContext = {
  sessionId: string;
  /** realpath of the session's workspace folder. */
  workspace: string;
  callId: string;
  mode: PermissionMode;
  /**
   * The call must not change anything: the session is in plan mode or the agent is read-only (explore).
   * Bash then runs under a read-only sandbox (or a parsed read-only allowlist without bubblewrap).
   */
  readOnly: boolean;
  /** Absolute path of the session's plan file: the only file a read-only call may write. */
  planFile: string | null;
  sandbox: SandboxInfo;
  /** Extra host folders commands may read: a trusted workspace config's sandbox.read (filtered where it runs). */
  sandboxRead?: readonly string[];
  /**
   * Issue 27/41: the patterns the session is held to (what its approval left held, or the whole review policy before
   * one): a change there is its owners' to allow.
   */
  held?: readonly string[];
  signal: AbortSignal;
  /** For tools that keep state in the session (question, task, todo_write); file tools ignore it. */
  runtime?: ToolRuntime;
  /**
   * How the gate let this call through: a person approved its exact text (bash then trusts control files and git
   * settings); `released`: the held patterns one of their owners (or an owner's audited override) released for it.
   */
  approval?: { asWritten: boolean; released?: readonly string[] };
};

export type ToolRuntime = {
  db: Db;
  agent: string;
  model: string;
  /** Subagents cannot start subagents, enter plan mode or open reviews. */
  isSubagent: boolean;
  /** Runs a session's turn (used by task to run its child). */
  drive: (sessionId: string) => Promise<void>;
  /** The session's team membership: a teammate's plan goes to its lead's mailbox. */
  team?: TeamMembership | null;
  /** The agent layer's session start (spawn_teammate's new session), passed down: tools sit below the agent. */
  startSession: StartSession;
};

export type ToolOutput = { output: string; metadata?: Record<string, unknown> };

/**
 * Thrown by a tool whose result waits on a person or another session (a question, a subagent). The tool has
 * recorded what it waits on; the turn stops holding anything and runs the call again when that resolves.
 */
export class ToolSuspended extends Error {
  override name = "ToolSuspended";
}

export type ToolDef<I = unknown> = {
  name: string;
  description: string;
  /** The permission key the rules use (edit, write and apply_patch all declare "edit"). */
  permission: string;
  inputSchema: z.ZodType<I>;
  /**
   * What running the call again would do. "resume": the tool suspends and is run again by design (it checks
   * its own state). "safe": it only reads. Otherwise its start is logged first, and a call started but never
   * finished (a crash) is reported as interrupted, never run twice.
   */
  rerun?: "resume" | "safe";
  /** The permission questions for this input (paths resolved first). No side effects. */
  asks(input: I, ctx: ToolContext): Promise<PermissionAsk[]>;
  execute(input: I, ctx: ToolContext): Promise<ToolOutput>;
};
