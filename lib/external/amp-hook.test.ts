import { describe, expect, it } from "vitest";
import { ampAsks, approvalText, beforeApproval, patchFiles } from "./amp-hook";
import { ampHookInput } from "./amp-hook-input";

const PATCH =
  "*** Begin Patch\n*** Add File: a.txt\n+x\n*** Update File: src/b.ts\n*** Move to: src/c.ts\n@@\n-y\n+z\n*** Delete File: old.md\n*** End Patch";

describe("Amp's plan mode rules (the delegate's)", () => {
  it.each([
    ["edit_file", 2],
    ["create_file", 2],
    ["apply_patch", 2],
    ["shell_command", 2],
    ["async_shell_command", 2],
    ["Bash", 2],
    ["Task", 2],
    ["read_web_page", 2],
    ["librarian", 2],
    // A tool a plugin or MCP server adds is refused too: only reading is known to change nothing.
    ["mcp__github__create_issue", 2],
    ["deploy", 2],
    ["Read", 0],
    ["Grep", 0],
    ["glob", 0],
    ["finder", 0],
    ["submit_plan", 0],
    // Amp matches tool names without case in its rules; the delegate does not, so a look-alike is refused.
    ["read", 2],
  ])("before an approval, %s answers exit %i", (tool, exit) => {
    const d = beforeApproval(tool);
    expect(d.exit).toBe(exit);
    if (d.exit === 2) expect(d.reason).toContain("call submit_plan");
  });

  it("reads the files a patch touches, in order", () => {
    expect(patchFiles(PATCH)).toEqual(["a.txt", "src/b.ts", "src/c.ts", "old.md"]);
    expect(patchFiles("*** Begin Patch\n*** End Patch")).toBeNull();
    expect(patchFiles("*** Update File:   \n")).toBeNull();
  });

  it.each([
    ["shell_command", { command: "rm -rf build" }, [{ tool: "Bash", input: { command: "rm -rf build" } }]],
    ["Bash", { cmd: "ls", cwd: "/w" }, [{ tool: "Bash", input: { command: "ls" } }]],
    // A command run in a folder of the project is shown with its cd; one run elsewhere is refused unread.
    [
      "shell_command",
      { command: "rm -rf .", workdir: "/w/build" },
      [{ tool: "Bash", input: { command: "cd 'build' && rm -rf ." } }],
    ],
    [
      "shell_command",
      { command: "ls", workdir: "src/it's" },
      [{ tool: "Bash", input: { command: "cd 'src/it'\\''s' && ls" } }],
    ],
    ["shell_command", { command: "rm -rf .", workdir: "/home/ada" }, null],
    ["Bash", { cmd: "git clean -fdx", cwd: "/etc" }, null],
    ["shell_command", { command: "rm -rf .", workdir: "/w/../etc" }, null],
    ["shell_command", { command: "rm -rf .", workdir: "../elsewhere" }, null],
    ["shell_command", { command: "rm -rf .", workdir: "/wx" }, null],
    ["edit_file", { path: "a.ts", old_str: "x", new_str: "y" }, [{ tool: "Edit", input: { file_path: "a.ts" } }]],
    ["create_file", { path: "b.ts", content: "" }, [{ tool: "Write", input: { file_path: "b.ts" } }]],
    [
      "apply_patch",
      { patchText: PATCH },
      ["a.txt", "src/b.ts", "src/c.ts", "old.md"].map((f) => ({ tool: "Edit", input: { file_path: f } })),
    ],
    ["Read", { path: "a.ts" }, []],
    // A changing call whose input is not what Amp sends is refused unread, never waved through.
    ["shell_command", { command: ["rm", "-rf"] }, null],
    ["apply_patch", { patchText: "rm -rf /" }, null],
    ["edit_file", {}, null],
    ["Task", { prompt: "edit everything" }, null],
  ])("%s %j is asked as %j", (tool, input, asks) => {
    expect(ampAsks(tool, input, "/w")).toEqual(asks);
  });

  it("an approval's text names Amp's plan tool and carries what Plangate's agent would read", () => {
    const text = approvalText({ plan: "# P", message: "Notes: call exit_plan_mode again if it changes" });
    expect(text).toMatch(/^The plan was approved on Plangate/);
    expect(text).toContain("call submit_plan again");
    expect(approvalText({ plan: "# P", message: null })).toContain("# P");
  });

  it.each([
    [{ event: "submit_plan", session_id: "T-1", cwd: "/w", plan: "x".repeat(200_001) }, false],
    [{ event: "submit_plan", session_id: "", cwd: "/w", plan: "# P" }, false],
    [{ event: "tool_call", session_id: "T-1", cwd: "/w" }, false],
    [{ event: "submit_plan", session_id: "T-1", cwd: "/w", plan: "# P" }, true],
    [{ event: "start", cwd: "/w" }, true],
  ])("the plugin's message %j is read: %s", (message, ok) => {
    expect(ampHookInput.safeParse(message).success).toBe(ok);
  });
});
