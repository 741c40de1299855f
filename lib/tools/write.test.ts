import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectToolError, makeFileFixture, type FileFixture } from "../../tests/helpers/file-tools-fixture";
import { writeTool } from "./write";

let fx: FileFixture;

beforeAll(async () => {
  fx = await makeFileFixture();
  await fx.put("a.txt", "old\n");
  await fx.put("real/inner.txt", "inner\n");
  await fx.put("secret.txt", "secret\n", fx.outside);
  await fs.mkdir(path.join(fx.ws, "plans"));
  await fs.symlink(path.join(fx.ws, "real"), path.join(fx.ws, "alias"));
  await fs.symlink(path.join(fx.outside, "secret.txt"), path.join(fx.ws, "leak.txt"));
  await fs.symlink(fx.outside, path.join(fx.ws, "out-dir"));
  execFileSync("mkfifo", [path.join(fx.ws, "pipe")]);
});

afterAll(() => fx.cleanup());

describe("write asks", () => {
  it("asks edit on the relative path with a diff of a new file", async () => {
    const [ask, ...rest] = await writeTool.asks({ path: "src/new.ts", content: "hello\n" }, fx.ctx());
    expect(rest).toEqual([]);
    expect(ask).toMatchObject({
      permission: "edit",
      patterns: ["src/new.ts"],
      always: ["src/new.ts"],
      readOnly: false,
      planFile: false,
      insideWorkspace: true,
      metadata: { path: "src/new.ts" },
    });
    expect(String(ask?.metadata?.diff)).toContain("+hello");
  });

  it("shows what an overwrite removes", async () => {
    const [ask] = await writeTool.asks({ path: "a.txt", content: "new\n" }, fx.ctx());
    expect(String(ask?.metadata?.diff)).toMatch(/-old\n\+new/);
  });

  it.each([
    ["the plan file", "plans/plan.md", true],
    ["the plan file through a symlinked folder", "alias/../plans/plan.md", true],
    ["another file", "plans/other.md", false],
  ])("sets planFile for %s", async (_label, input, expected) => {
    const ctx = fx.ctx({ planFile: path.join(fx.ws, "plans/plan.md") });
    const asks = await writeTool.asks({ path: input, content: "# plan\n" }, ctx);
    expect(asks.map((a) => a.planFile)).toEqual([expected]);
  });

  it.each([
    ["../outside/new.txt", () => "../outside/new.txt", "new.txt"],
    ["a symlinked file escape", () => "leak.txt", "secret.txt"],
    ["a symlinked folder escape", () => "out-dir/sub/x.txt", "sub/x.txt"],
  ])("asks external_directory and edit on the real path for %s", async (_label, input, real) => {
    const target = path.join(fx.outside, real);
    const asks = await writeTool.asks({ path: input(), content: "x" }, fx.boxed());
    expect(asks.map((a) => [a.permission, a.patterns, a.always, a.readOnly, a.insideWorkspace])).toEqual([
      ["external_directory", [`${path.dirname(target)}/*`], [`${path.dirname(target)}/*`], true, false],
      ["edit", [target], [target], false, false],
    ]);
  });
});

describe("write execute", () => {
  it("creates a file and its folders", async () => {
    const { output } = await writeTool.execute({ path: "src/deep/new.ts", content: "a\nb\n" }, fx.ctx());
    expect(output).toBe("Created src/deep/new.ts (2 lines written).");
    expect(await fx.text("src/deep/new.ts")).toBe("a\nb\n");
  });

  it("overwrites a file", async () => {
    await fx.put("over.txt", "before\n");
    const { output } = await writeTool.execute({ path: "over.txt", content: "after" }, fx.ctx());
    expect(output).toBe("Overwrote over.txt (1 line written).");
    expect(await fx.text("over.txt")).toBe("after");
  });

  it("writes the real file behind a symlinked folder inside the workspace", async () => {
    const { output } = await writeTool.execute({ path: "alias/inner.txt", content: "changed\n" }, fx.ctx());
    expect(output).toBe("Overwrote real/inner.txt (1 line written).");
    expect(await fx.text("real/inner.txt")).toBe("changed\n");
  });

  it("writes the outside path that asks judged (the symlink target), once permitted", async () => {
    const ctx = fx.boxed();
    await writeTool.asks({ path: "leak.txt", content: "replaced\n" }, ctx);
    await writeTool.execute({ path: "leak.txt", content: "replaced\n" }, ctx);
    expect(await fx.text("secret.txt", fx.outside)).toBe("replaced\n");
  });

  it("refuses when a symlink was swapped in after asks, and writes nothing", async () => {
    await fx.put("victim.txt", "mine\n", fx.outside);
    const ctx = fx.ctx();
    await writeTool.asks({ path: "swap.txt", content: "pwned" }, ctx);
    await fs.symlink(path.join(fx.outside, "victim.txt"), path.join(fx.ws, "swap.txt"));
    await expectToolError(writeTool.execute({ path: "swap.txt", content: "pwned" }, ctx), /different location/);
    expect(await fx.text("victim.txt", fx.outside)).toBe("mine\n");
  });

  it("lets a read-only call write the plan file", async () => {
    const ctx = fx.ctx({ readOnly: true, planFile: path.join(fx.ws, "plans/plan.md") });
    await writeTool.execute({ path: "plans/plan.md", content: "# plan\n" }, ctx);
    expect(await fx.text("plans/plan.md")).toBe("# plan\n");
  });

  it.each([
    ["a directory", "real", /real is a directory/],
    ["a path under a file", "a.txt/child.txt", /A parent of a\.txt\/child\.txt is a file/],
    ["an empty path", "", /path is empty/],
    ["a FIFO (without hanging)", "pipe", /pipe is not a regular file/],
  ])("refuses %s", async (_label, input, message) => {
    await expectToolError(writeTool.execute({ path: input, content: "x" }, fx.ctx()), message);
  });

  it("refuses any other file in a read-only call", async () => {
    const ctx = fx.ctx({ readOnly: true, planFile: path.join(fx.ws, "plans/plan.md") });
    await expectToolError(writeTool.execute({ path: "a.txt", content: "x" }, ctx), /read-only/);
    expect(await fx.text("a.txt")).toBe("old\n");
  });
});
