import { z } from "zod";
import { alwaysOptions, commandShapes } from "../sandbox/always-rules";
import type { SandboxProfile } from "../sandbox/bwrap-args";
import { isReadOnlyCommand } from "../sandbox/read-only-commands";
import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, runCommand } from "../sandbox/run-command";
import { heldLocations, namedHeld } from "../sandbox/held-locations";
import { ToolError, type PermissionAsk, type ToolContext, type ToolDef } from "./types";

const bashInput = z.object({
  command: z
    .string()
    .min(1)
    .refine((s) => s.trim().length > 0, "command must not be blank")
    .describe("The shell script to run with bash -c, in the workspace folder."),
  timeoutMs: z
    .number()
    .int()
    .min(1)
    .max(MAX_TIMEOUT_MS)
    .optional()
    .describe(
      `Kill the command after this many milliseconds (default ${DEFAULT_TIMEOUT_MS}, at most ${MAX_TIMEOUT_MS}).`,
    ),
  network: z
    .boolean()
    .optional()
    .describe(
      "Ask for network access (installing packages, fetching). Without it the command has no network. A person decides; never in plan mode.",
    ),
});
export type BashInput = z.infer<typeof bashInput>;

/**
 * Whether the script may run without asking because it cannot change anything. With bubblewrap this only
 * picks the profile (what runs unasked runs read-only with no network, so a wrong answer is harmless);
 * without it the allowlist is all there is, so it must also stay inside the workspace.
 */
function readOnlyRun(command: string, ctx: ToolContext): boolean {
  const allowlisted = isReadOnlyCommand(command, { confined: !ctx.sandbox.available }).ok;
  return ctx.readOnly ? ctx.sandbox.available || allowlisted : allowlisted;
}

function describeProfile(profile: SandboxProfile, sandboxed: boolean): string {
  if (!sandboxed)
    return profile.write ? "(no sandbox on this machine)" : "(no sandbox: ran as an allowlisted read-only command)";
  if (!profile.write) return "(read-only sandbox: writes fail, no network)";
  return profile.network
    ? "(sandbox: only the workspace is writable; network allowed)"
    : "(sandbox: only the workspace is writable; no network)";
}

export const bashTool: ToolDef<BashInput> = {
  name: "bash",
  description: [
    "Run a shell script with `bash -c` in the workspace folder; stdout and stderr come back together, followed by the exit code.",
    "stdin is empty, so interactive programs will not work. Each call starts a fresh shell: cd and variables do not carry over.",
    `Commands are killed after timeoutMs (default ${DEFAULT_TIMEOUT_MS / 1000} s, at most ${MAX_TIMEOUT_MS / 1000} s), with any background jobs they started.`,
    "Long output keeps its beginning and end; filter it (grep, head, tail) rather than print everything.",
    "Commands run in an OS sandbox that shows the workspace and the system's programs, not the rest of the host, and has no network",
    "unless you set network: true (a person must allow it). Read-only commands (ls, cat, grep, git log, …) run at once, read-only;",
    "anything else waits for a person's approval and may then write only inside the workspace.",
    'In plan mode (and for read-only agents) every command is read-only: writes fail with "Read-only file system".',
    "Prefer the read, grep, glob and list tools for looking at files.",
  ].join("\n"),
  permission: "bash",
  inputSchema: bashInput,

  async asks(input, ctx) {
    const commands = commandShapes(input.command);
    const patterns = commands.map((c) => c.text);
    const choices = commands.map((c) => ({ pattern: c.text, options: alwaysOptions(c) }));
    const always = choices.map((c) => c.options[c.options.length - 1]?.rule ?? c.pattern);
    const exactOnly = commands.filter((c) => !c.plain).map((c) => c.text);
    const readOnly = readOnlyRun(input.command, ctx);
    const network = input.network === true;
    if (network && ctx.sandbox.available && !ctx.sandbox.slirpPath) {
      throw new ToolError(
        "Network access is not available here: slirp4netns is not installed, so a sandboxed command cannot get a network safely.",
      );
    }
    // Without bubblewrap a command that is not read-only runs on the host: only a person answers it (the gate).
    const unsandboxed = !ctx.sandbox.available;
    // A held pattern the sandbox cannot hold, or one the command names: a command that may write asks the pattern's
    // owners (only they may let it write there; anyone else's "once" runs it with every held location read-only).
    const loose = readOnly
      ? []
      : [
          ...new Set([
            ...heldLocations(ctx.held, ctx.workspace, { sandboxed: ctx.sandbox.available }).loose,
            ...namedHeld(input.command, ctx.held),
          ]),
        ];
    const metadata = {
      command: input.command,
      sandboxed: ctx.sandbox.available,
      network,
      runs: readOnly ? "read-only" : "workspace",
    };
    const asks: PermissionAsk[] = [
      {
        permission: "bash",
        patterns,
        always: [...new Set(always)],
        alwaysOptions: choices,
        exactOnly,
        readOnly,
        insideWorkspace: true,
        unsandboxed,
        ...(loose.length > 0 ? { control: patterns } : {}),
        metadata: loose.length > 0 ? { ...metadata, held: loose } : metadata,
      },
    ];
    if (network) {
      asks.push({
        permission: "network",
        patterns,
        always: [...new Set(always)],
        alwaysOptions: choices,
        exactOnly,
        readOnly: false,
        unsandboxed,
        metadata,
      });
    }
    return asks;
  },

  async execute(input, ctx) {
    const readOnly = readOnlyRun(input.command, ctx);
    if (ctx.readOnly && !readOnly) {
      const verdict = isReadOnlyCommand(input.command, { confined: true });
      throw new ToolError(
        `Refused in read-only mode: ${verdict.ok ? "the command is not read-only" : verdict.reason}. Without bubblewrap installed only read-only ` +
          "commands (ls, cat, grep, git log, …) inside the workspace may run here, with no redirection into files.",
      );
    }
    // What runs unasked because it was judged read-only gets the read-only profile, whatever the mode.
    const profile: SandboxProfile = { write: !readOnly, network: input.network === true };
    // Every held location stays read-only unless an owner released it for this very command, however it was
    // allowed (as written, bypassPermissions). One nothing can hold that is not released: its owners were not asked.
    const held = heldLocations(ctx.held, ctx.workspace, {
      sandboxed: ctx.sandbox.available,
      released: ctx.approval?.released ?? [],
    });
    if (profile.write && held.loose.length > 0)
      throw new ToolError(
        `Refused: ${held.loose.join(", ")} ${held.loose.length === 1 ? "is" : "are"} held by the review policy for ${held.loose.length === 1 ? "its" : "their"} owners, and no command may write there unless one of them approves it. Run it again to ask them.`,
      );
    const result = await runCommand({
      command: input.command,
      cwd: ctx.workspace,
      workspace: ctx.workspace,
      profile,
      asWritten: ctx.approval?.asWritten === true,
      timeoutMs: input.timeoutMs,
      signal: ctx.signal,
      sandbox: ctx.sandbox,
      extraRead: ctx.sandboxRead ?? [],
      held,
    });
    const lines = result.output.length > 0 ? [result.output.replace(/\n$/, "")] : ["(no output)"];
    if (result.planted.length > 0) {
      // Control files steer the agent, git, editors and the shell: only a person may create them, by approving this exact command.
      throw new ToolError(
        [
          `Refused: the command created control files that only a person may write (${result.planted.join(", ")}); they were removed.`,
          "Ask the person to approve the exact command if they are needed. The command's output was:",
          ...lines,
          `exit code ${result.exitCode ?? "none (killed)"}`,
        ].join("\n"),
      );
    }
    if (result.heldWritten && result.heldWritten.length > 0) {
      throw new ToolError(
        [
          `Refused: the command changed paths the review policy holds for their owners (${result.heldWritten.join(", ")}); what it put there was moved to the quarantine.`,
          "Only one of the owners may approve a command that writes there. The command's output was:",
          ...lines,
          `exit code ${result.exitCode ?? "none (killed)"}`,
        ].join("\n"),
      );
    }
    if (result.timedOut)
      lines.push(`(timed out after ${input.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms; the command was killed)`);
    else if (ctx.signal.aborted) lines.push("(aborted; the command was killed)");
    lines.push(describeProfile(profile, result.sandboxed));
    lines.push(`exit code ${result.exitCode ?? "none (killed)"}`);
    return {
      output: lines.join("\n"),
      metadata: {
        exitCode: result.exitCode,
        timedOut: result.timedOut,
        truncated: result.truncated,
        sandboxed: result.sandboxed,
        profile,
      },
    };
  },
};
