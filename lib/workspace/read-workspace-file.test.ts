import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readWorkspaceFile } from "./read-workspace-file";

// The file names come from a plan (the model's text): each attack names something outside the workspace, or
// something that is not a plain file, and gets a refusal with nothing of it read.
let root = "";
let ws = "";
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-view-")));
  ws = path.join(root, "project");
  fs.mkdirSync(path.join(ws, "src"), { recursive: true });
  fs.writeFileSync(path.join(ws, "src/todo.ts"), "export const todos = [];\n");
  fs.writeFileSync(path.join(root, "secret.txt"), "outside the workspace\n");
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("readWorkspaceFile", () => {
  it("reads a file the plan names, relative to the workspace", async () => {
    expect(await readWorkspaceFile(ws, "src/todo.ts")).toMatchObject({
      status: "ok",
      relative: "src/todo.ts",
      text: "export const todos = [];\n",
      truncated: false,
    });
  });

  it.each([
    ["a path up and out", () => "../secret.txt"],
    ["an absolute path outside", () => path.join(root, "secret.txt")],
    [
      "a link inside pointing out",
      () => (fs.symlinkSync(path.join(root, "secret.txt"), path.join(ws, "link.txt")), "link.txt"),
    ],
    ["a folder link pointing out", () => (fs.symlinkSync(root, path.join(ws, "up")), "up/secret.txt")],
    ["home", () => "~/.ssh/id_rsa"],
    ["a FIFO", () => (execFileSync("mkfifo", [path.join(ws, "pipe")]), "pipe")],
    ["a folder", () => "src"],
    ["a NUL byte", () => "src/todo.ts\0"],
    ["nothing", () => ""],
  ])("refuses %s", async (_, make) => {
    const got = await readWorkspaceFile(ws, make());
    expect(got.status).toBe("refused");
    expect(JSON.stringify(got)).not.toContain("outside the workspace\\n");
  });

  it("shows a large file's start, saying it was cut", async () => {
    fs.writeFileSync(path.join(ws, "big.txt"), "x".repeat(300 * 1024));
    const got = await readWorkspaceFile(ws, "big.txt");
    expect(got).toMatchObject({ status: "ok", truncated: true, size: 300 * 1024 });
    if (got.status === "ok") expect(got.text.length).toBe(256 * 1024);
  });
});
