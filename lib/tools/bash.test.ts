import { describe, expect, it } from "vitest";
import { bashTool } from "./bash";
import type { SandboxInfo, ToolContext } from "./types";

const withSandbox: SandboxInfo = { available: true, bwrapPath: "/usr/bin/bwrap" };
const noSandbox: SandboxInfo = { available: false, bwrapPath: null };

function ctx(readOnly: boolean, sandbox: SandboxInfo): ToolContext {
  return {
    sessionId: "s1",
    workspace: "/work/ws",
    callId: "c1",
    mode: readOnly ? "plan" : "default",
    readOnly,
    planFile: readOnly ? "/work/ws/.plangate/plans/x.md" : null,
    sandbox,
    signal: new AbortController().signal,
  };
}

describe("bashTool.asks", () => {
  it("judges every command of a list and proposes a prefix rule for each", async () => {
    const [ask, ...rest] = await bashTool.asks({ command: "git log -n 3 && rm -rf build" }, ctx(true, withSandbox));
    expect(rest).toEqual([]);
    expect(ask).toEqual({
      permission: "bash",
      patterns: ["git log -n 3", "rm -rf build"],
      always: ["git log *", "rm *"],
      readOnly: true,
      insideWorkspace: true,
      metadata: { command: "git log -n 3 && rm -rf build", sandboxed: true },
    });
  });

  it.each<[string, boolean, SandboxInfo, boolean]>([
    ["rm x", true, withSandbox, true],
    ["rm x", false, withSandbox, false],
    ["rm x", false, noSandbox, false],
    ["rm x", true, noSandbox, false],
    ["ls -la", true, noSandbox, true],
    ["ls -la", false, noSandbox, true],
    ["ls > out", true, noSandbox, false],
    ["git status", false, withSandbox, true],
  ])("%j with readOnly=%s and sandbox %j is readOnly=%s", async (command, readOnly, sandbox, expected) => {
    const [ask] = await bashTool.asks({ command }, ctx(readOnly, sandbox));
    expect(ask?.readOnly).toBe(expected);
  });

  it("deduplicates always patterns and keeps a comment-only script judgeable", async () => {
    const [dup] = await bashTool.asks({ command: "git log -1; git log -2" }, ctx(false, withSandbox));
    expect(dup?.always).toEqual(["git log *"]);
    const [comment] = await bashTool.asks({ command: "# nothing" }, ctx(false, withSandbox));
    expect(comment?.patterns).toEqual(["# nothing"]);
  });
});

describe("bashTool.inputSchema", () => {
  it.each<[unknown, boolean]>([
    [{ command: "ls" }, true],
    [{ command: "ls", timeoutMs: 1000 }, true],
    [{ command: "ls", timeoutMs: 600_000 }, true],
    [{ command: "" }, false],
    [{ command: "   " }, false],
    [{ command: "ls", timeoutMs: 0 }, false],
    [{ command: "ls", timeoutMs: 600_001 }, false],
    [{ command: "ls", timeoutMs: 1.5 }, false],
    [{}, false],
  ])("%j valid=%s", (input, valid) => {
    expect(bashTool.inputSchema.safeParse(input).success).toBe(valid);
  });
});

describe("bashTool.execute without a sandbox in read-only mode", () => {
  it("refuses a command the allowlist refuses, with the reason", async () => {
    await expect(bashTool.execute({ command: "echo x > a.txt" }, ctx(true, noSandbox))).rejects.toThrow(
      /Refused in read-only mode: redirection to "a.txt" writes a file/,
    );
  });
});
