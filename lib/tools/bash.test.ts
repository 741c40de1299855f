import { describe, expect, it } from "vitest";
import { bashTool } from "./bash";
import type { SandboxInfo, ToolContext } from "./types";

const withSandbox: SandboxInfo = { available: true, bwrapPath: "/usr/bin/bwrap", slirpPath: "/usr/bin/slirp4netns" };
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
  it("judges every command of a list; always saves each exactly unless a prefix is harmless", async () => {
    const [ask, ...rest] = await bashTool.asks(
      { command: "git status -s && rm -rf build > log" },
      ctx(true, withSandbox),
    );
    expect(rest).toEqual([]);
    expect(ask).toMatchObject({
      permission: "bash",
      patterns: ["git status -s", "rm -rf build >log"],
      always: ["git status *", "rm -rf build >log"],
      exactOnly: ["rm -rf build >log"],
      readOnly: true,
      insideWorkspace: true,
      metadata: { command: "git status -s && rm -rf build > log", sandboxed: true, network: false, runs: "read-only" },
    });
    expect(ask?.alwaysOptions?.map((c) => c.options.map((o) => [o.rule, o.exact]))).toEqual([
      [
        ["git status -s", true],
        ["git status *", false],
      ],
      [["rm -rf build >log", true]],
    ]);
  });

  it("asks for the network as a permission of its own, naming the command", async () => {
    const asks = await bashTool.asks({ command: "npm install", network: true }, ctx(false, withSandbox));
    expect(asks.map((a) => [a.permission, a.patterns, a.readOnly])).toEqual([
      ["bash", ["npm install"], false],
      ["network", ["npm install"], false],
    ]);
    const plain = await bashTool.asks({ command: "npm install" }, ctx(false, withSandbox));
    expect(plain.map((a) => a.permission)).toEqual(["bash"]);
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
    // With bubblewrap the host is hidden, so reading outside is harmless; without it, the classifier must ask.
    ["cat /etc/passwd", false, withSandbox, true],
    ["cat /etc/passwd", false, noSandbox, false],
    ["printf x 1</dev/tcp/127.0.0.1/3000", false, withSandbox, false],
    ["echo x 1</dev/tcp/127.0.0.1/3000", true, noSandbox, false],
  ])("%j with readOnly=%s and sandbox %j is readOnly=%s", async (command, readOnly, sandbox, expected) => {
    const [ask] = await bashTool.asks({ command }, ctx(readOnly, sandbox));
    expect(ask?.readOnly).toBe(expected);
  });

  it("deduplicates always patterns and keeps a comment-only script judgeable", async () => {
    const [dup] = await bashTool.asks({ command: "git status -s; git status -b" }, ctx(false, withSandbox));
    expect(dup?.always).toEqual(["git status *"]);
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
