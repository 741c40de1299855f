import { z } from "zod";
import { isReadOnlyCommand } from "../sandbox/read-only-commands";
import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, runCommand } from "../sandbox/run-command";
import { proposeAlways, splitCommands } from "../sandbox/split-commands";
import { ToolError, type ToolDef } from "./types";

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
    .describe(`Kill the command after this many milliseconds (default ${DEFAULT_TIMEOUT_MS}, at most ${MAX_TIMEOUT_MS}).`),
});
export type BashInput = z.infer<typeof bashInput>;

export const bashTool: ToolDef<{ command: string; timeoutMs?: number }> = {
  name: "bash",
  description: [
    "Run a shell script with `bash -c` in the workspace folder; stdout and stderr come back together, followed by the exit code.",
    "stdin is empty, so interactive programs will not work. Each call starts a fresh shell: cd and variables do not carry over.",
    `Commands are killed after timeoutMs (default ${DEFAULT_TIMEOUT_MS / 1000} s, at most ${MAX_TIMEOUT_MS / 1000} s), with any background jobs they started.`,
    "Long output keeps its beginning and end; filter it (grep, head, tail) rather than print everything.",
    "In plan mode (and for read-only agents) the filesystem is read-only and there is no network: use bash to inspect",
    "(ls, git log, grep, running read-only checks), not to change files. Writes fail with \"Read-only file system\".",
    "Prefer the read, grep, glob and list tools for looking at files.",
  ].join("\n"),
  permission: "bash",
  inputSchema: bashInput,

  async asks(input, ctx) {
    const { commands } = splitCommands(input.command);
    // A script of only comments has no command to judge; judge its text rather than nothing.
    const patterns = commands.length > 0 ? commands : [input.command.trim()];
    const always = [...new Set(patterns.map(proposeAlways))];
    const allowlisted = isReadOnlyCommand(input.command).ok;
    return [
      {
        permission: "bash",
        patterns,
        always,
        readOnly: ctx.readOnly ? ctx.sandbox.available || allowlisted : allowlisted,
        insideWorkspace: true,
        metadata: { command: input.command, sandboxed: ctx.sandbox.available },
      },
    ];
  },

  async execute(input, ctx) {
    if (ctx.readOnly && !ctx.sandbox.available) {
      const verdict = isReadOnlyCommand(input.command);
      if (!verdict.ok) {
        throw new ToolError(
          `Refused in read-only mode: ${verdict.reason}. Without bubblewrap installed only read-only commands ` +
            "(ls, cat, grep, git log, …) may run here, with no redirection into files.",
        );
      }
    }
    const result = await runCommand({
      command: input.command,
      cwd: ctx.workspace,
      workspace: ctx.workspace,
      readOnly: ctx.readOnly,
      timeoutMs: input.timeoutMs,
      signal: ctx.signal,
      sandbox: ctx.sandbox,
    });
    const lines = result.output.length > 0 ? [result.output.replace(/\n$/, "")] : ["(no output)"];
    if (result.timedOut) lines.push(`(timed out after ${input.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms; the command was killed)`);
    else if (ctx.signal.aborted) lines.push("(aborted; the command was killed)");
    if (ctx.readOnly) {
      lines.push(result.sandboxed ? "(read-only sandbox: writes fail, no network)" : "(no sandbox: ran as an allowlisted read-only command)");
    }
    lines.push(`exit code ${result.exitCode ?? "none (killed)"}`);
    return {
      output: lines.join("\n"),
      metadata: { exitCode: result.exitCode, timedOut: result.timedOut, truncated: result.truncated, sandboxed: result.sandboxed },
    };
  },
};
