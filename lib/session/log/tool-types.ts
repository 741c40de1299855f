import type { CallAsk } from "../../permission/index";

// Shared by the tools and the layers below them (sandbox, workspace, session): kept here so that none of those
// imports the tools.

/** What the OS sandbox can do on this machine: bubblewrap found or not, and slirp4netns for a private network. */
export type SandboxInfo = { available: boolean; bwrapPath: string | null; slirpPath?: string | null };

/** One permission question a call raises, with what the permission card shows and "always" may save. */
export type PermissionAsk = CallAsk & {
  /** Patterns that "always" saves by default: the exact command, or a prefix where that is harmless ("ls *"). */
  always: string[];
  /** Per pattern, every rule "always" may save (narrowest first) in plain words; a person may pick a narrower one. */
  alwaysOptions?: { pattern: string; options: { rule: string; exact: boolean; words: string }[] }[];
  /** Shown on the permission card: a diff for edits, the command for bash, the path for reads. */
  metadata?: Record<string, unknown>;
};

/** A failure the model should read (bad path, no match for oldString, command refused). */
export class ToolError extends Error {
  override name = "ToolError";
}

/** Outputs longer than this are cut, with a note saying how much was left out. */
export const MAX_OUTPUT_CHARS = 30_000;
