import fsSync from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeFileFixture, type FileFixture } from "../../tests/helpers/file-tools-fixture";
import { ToolError } from "../session/log/tool-types";
import {
  assertJudgedPaths,
  externalDirectoryAsk,
  permissionPath,
  rememberJudgedPaths,
  resolvePath,
} from "./resolve-path";

let fx: FileFixture;

beforeAll(async () => {
  fx = await makeFileFixture();
  await fx.put("src/a.ts", "a\n");
  await fx.put("secret.txt", "s\n", fx.outside);
  await fx.put("real/inner.txt", "i\n");
  await fs.symlink(path.join(fx.outside, "secret.txt"), path.join(fx.ws, "leak.txt"));
  await fs.symlink(fx.outside, path.join(fx.ws, "out-dir"));
  await fs.symlink(path.join(fx.ws, "real"), path.join(fx.ws, "alias"));
  await fs.symlink("real", path.join(fx.ws, "rel-alias"));
  // Dangling: writing through it would create the outside file.
  await fs.symlink(path.join(fx.outside, "not-yet.txt"), path.join(fx.ws, "dangling.txt"));
  await fs.symlink("loop-b", path.join(fx.ws, "loop-a"));
  await fs.symlink("loop-a", path.join(fx.ws, "loop-b"));
});

afterAll(() => fx.cleanup());

describe("resolvePath", () => {
  type Case = [label: string, input: () => string, absolute: () => string, relative: string | null];
  const cases: Case[] = [
    ["a relative file", () => "src/a.ts", () => path.join(fx.ws, "src/a.ts"), "src/a.ts"],
    [
      "a relative file with ./ and a redundant ..",
      () => "./src/../src/a.ts",
      () => path.join(fx.ws, "src/a.ts"),
      "src/a.ts",
    ],
    ["an absolute path inside", () => path.join(fx.ws, "src/a.ts"), () => path.join(fx.ws, "src/a.ts"), "src/a.ts"],
    ["the workspace root", () => ".", () => fx.ws, "."],
    ["the workspace root given absolutely", () => fx.ws, () => fx.ws, "."],
    ["a .. escape", () => "../outside/secret.txt", () => path.join(fx.outside, "secret.txt"), null],
    ["a .. escape to a missing file", () => "../x", () => path.join(fx.root, "x"), null],
    [
      "an absolute path outside",
      () => path.join(fx.outside, "secret.txt"),
      () => path.join(fx.outside, "secret.txt"),
      null,
    ],
    ["a symlinked file pointing outside", () => "leak.txt", () => path.join(fx.outside, "secret.txt"), null],
    [
      "a file under a symlinked dir pointing outside",
      () => "out-dir/secret.txt",
      () => path.join(fx.outside, "secret.txt"),
      null,
    ],
    [
      "a missing file under a symlinked dir pointing outside",
      () => "out-dir/new/file.txt",
      () => path.join(fx.outside, "new/file.txt"),
      null,
    ],
    ["a dangling symlink pointing outside", () => "dangling.txt", () => path.join(fx.outside, "not-yet.txt"), null],
    [
      "a non-existent nested file inside",
      () => "new/deep/file.ts",
      () => path.join(fx.ws, "new/deep/file.ts"),
      "new/deep/file.ts",
    ],
    [
      "a path through a symlinked dir inside",
      () => "alias/inner.txt",
      () => path.join(fx.ws, "real/inner.txt"),
      "real/inner.txt",
    ],
    [
      "a path through a relative symlink inside",
      () => "rel-alias/inner.txt",
      () => path.join(fx.ws, "real/inner.txt"),
      "real/inner.txt",
    ],
    // The kernel resolves `out-dir` before `..`, so this is the outside folder's parent, not the workspace.
    ["symlink then .. (kernel order)", () => "out-dir/../ws/src/a.ts", () => path.join(fx.ws, "src/a.ts"), "src/a.ts"],
    [
      "symlink then .. leaving the workspace",
      () => "out-dir/../outside/secret.txt",
      () => path.join(fx.outside, "secret.txt"),
      null,
    ],
    ["a missing folder then ..", () => "nope/../src/a.ts", () => path.join(fx.ws, "src/a.ts"), "src/a.ts"],
    ["a sibling whose name starts like the workspace", () => `${fx.ws}-evil/x`, () => `${fx.ws}-evil/x`, null],
  ];

  it.each(cases)("%s", async (_label, input, absolute, relative) => {
    const resolved = await resolvePath(fx.ws, input());
    expect(resolved).toEqual({ absolute: absolute(), relative, inside: relative !== null, control: false });
  });

  it("flags a control file by the path as written and by where it leads", async () => {
    const ws = fx.ws;
    fsSync.mkdirSync(path.join(ws, "cfg"), { recursive: true });
    fsSync.symlinkSync("cfg", path.join(ws, ".claude"));
    fsSync.symlinkSync(".git", path.join(ws, "docs-git"));
    try {
      // Written as .claude/settings.json, it lands in cfg/settings.json, which Claude Code then reads as its settings.
      expect(await resolvePath(ws, ".claude/settings.json")).toMatchObject({
        relative: "cfg/settings.json",
        control: true,
      });
      // Written as an ordinary path, it lands inside .git.
      expect(await resolvePath(ws, "docs-git/config")).toMatchObject({ relative: ".git/config", control: true });
      expect(await resolvePath(ws, "src/.git/config")).toMatchObject({ control: true });
      // And written where the link leads: the same file.
      expect(await resolvePath(ws, "cfg/settings.json")).toMatchObject({
        relative: "cfg/settings.json",
        control: true,
      });
      expect(await resolvePath(ws, "src/app.ts")).toMatchObject({ control: false });
    } finally {
      fsSync.rmSync(path.join(ws, ".claude"));
      fsSync.rmSync(path.join(ws, "docs-git"));
      fsSync.rmSync(path.join(ws, "cfg"), { recursive: true });
    }
  });

  it("resolves ~ to the home folder", async () => {
    const resolved = await resolvePath(fx.ws, "~/some-file-that-is-not-there");
    expect(resolved.absolute).toBe(path.join(await fs.realpath(os.homedir()), "some-file-that-is-not-there"));
  });

  it.each([
    ["empty", ""],
    ["blank", "   "],
    ["a NUL byte", "src/a.ts\0.png"],
  ])("rejects %s paths with a ToolError", async (_label, input) => {
    await expect(resolvePath(fx.ws, input)).rejects.toBeInstanceOf(ToolError);
  });

  it("fails on a symlink loop instead of spinning", async () => {
    await expect(resolvePath(fx.ws, "loop-a/x")).rejects.toThrow(/Too many symbolic links/);
  });
});

describe("permissionPath and externalDirectoryAsk", () => {
  it("uses the relative path inside and the absolute path outside", async () => {
    expect(permissionPath(await resolvePath(fx.ws, "src/a.ts"))).toBe("src/a.ts");
    expect(permissionPath(await resolvePath(fx.ws, "leak.txt"))).toBe(path.join(fx.outside, "secret.txt"));
  });

  it.each([
    ["file", "secret.txt", (o: string) => `${o}/*`],
    ["dir", ".", (o: string) => `${o}/*`],
  ] as const)("asks for the folder of a %s", async (kind, rel, pattern) => {
    const resolved = await resolvePath(fx.ws, path.join(fx.outside, rel));
    expect(externalDirectoryAsk(resolved, kind)).toEqual({
      permission: "external_directory",
      patterns: [pattern(fx.outside)],
      always: [pattern(fx.outside)],
      readOnly: true,
      insideWorkspace: false,
      metadata: { path: resolved.absolute },
    });
  });

  it("does not double the slash at the filesystem root", async () => {
    const ask = externalDirectoryAsk(await resolvePath(fx.ws, "/"), "dir");
    expect(ask.patterns).toEqual(["/*"]);
  });
});

describe("judged paths", () => {
  it.each([
    ["the same paths", ["/a", "/b"], ["/b", "/a"], false],
    ["different paths", ["/a"], ["/c"], true],
    ["a call asks never saw", null, ["/c"], false],
  ] as const)("execute with %s", (_label, seen, now, throws) => {
    const id = `judged-${_label}`;
    if (seen !== null) rememberJudgedPaths(id, seen);
    const run = () => assertJudgedPaths(id, now);
    if (throws) expect(run).toThrow(ToolError);
    else expect(run).not.toThrow();
  });
});
