import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectToolError, makeFileFixture, type FileFixture } from "../../tests/helpers/file-tools-fixture";
import { globTool, MAX_GLOB_RESULTS } from "./glob";

let fx: FileFixture;

async function touch(rel: string, secondsAgo: number): Promise<void> {
  const file = await fx.put(rel, "x\n");
  const t = new Date(Date.now() - secondsAgo * 1000);
  await fs.utimes(file, t, t);
}

beforeAll(async () => {
  fx = await makeFileFixture();
  await touch("src/old.ts", 300);
  await touch("src/new.ts", 10);
  await touch("src/deep/mid.ts", 100);
  await touch("src/view.tsx", 50);
  await touch("README.md", 5);
  await touch("node_modules/pkg/index.ts", 1);
  for (let i = 0; i < MAX_GLOB_RESULTS + 5; i++) await touch(`many/f${i}.log`, i);
  await fx.put("a.ts", "", fx.outside);
  await fs.symlink(fx.outside, path.join(fx.ws, "out-link"));
});

afterAll(() => fx.cleanup());

describe("glob asks", () => {
  it("asks glob with the pattern", async () => {
    expect(await globTool.asks({ pattern: "**/*.ts" }, fx.ctx())).toEqual([
      {
        permission: "glob",
        patterns: ["**/*.ts"],
        always: ["**/*.ts"],
        readOnly: true,
        insideWorkspace: true,
        metadata: { pattern: "**/*.ts", path: "." },
      },
    ]);
  });

  it.each([["../outside"], ["out-link"]])("adds external_directory for the search folder %s", async (input) => {
    const asks = await globTool.asks({ pattern: "*.ts", path: input }, fx.boxed());
    expect(asks.map((a) => [a.permission, a.patterns])).toEqual([
      ["external_directory", [`${fx.outside}/*`]],
      ["glob", ["*.ts"]],
    ]);
  });
});

describe("glob execute", () => {
  it.each([
    ["names at any depth, newest first", "*.ts", undefined, "src/new.ts\nsrc/deep/mid.ts\nsrc/old.ts"],
    ["a path pattern", "src/*.ts", undefined, "src/new.ts\nsrc/old.ts"],
    ["braces", "src/**/*.{ts,tsx}", undefined, "src/new.ts\nsrc/view.tsx\nsrc/deep/mid.ts\nsrc/old.ts"],
    ["a sub path (results stay workspace-relative)", "*.ts", "src/deep", "src/deep/mid.ts"],
    ["no match", "*.rs", undefined, "No files found."],
  ])("finds %s", async (_label, pattern, where, expected) => {
    const input = where === undefined ? { pattern } : { pattern, path: where };
    expect((await globTool.execute(input, fx.ctx())).output).toBe(expected);
  });

  it("names outside results by absolute path", async () => {
    expect((await globTool.execute({ pattern: "*.ts", path: "out-link" }, fx.boxed())).output).toBe(
      path.join(fx.outside, "a.ts"),
    );
  });

  it(`stops at ${MAX_GLOB_RESULTS} results with a note`, async () => {
    const { output } = await globTool.execute({ pattern: "many/*.log" }, fx.ctx());
    const lines = output.split("\n");
    expect(lines[0]).toBe("many/f0.log");
    expect(lines.filter((l) => l.endsWith(".log"))).toHaveLength(MAX_GLOB_RESULTS);
    expect(output).toContain(`(${MAX_GLOB_RESULTS + 5} files matched; showing the ${MAX_GLOB_RESULTS} newest`);
  });

  it.each([
    ["an absolute pattern", { pattern: "/etc/*" }, /must be relative/],
    ["a .. pattern", { pattern: "../*" }, /must be relative/],
    ["a missing folder", { pattern: "*", path: "nope" }, /File not found: nope/],
    ["a file as folder", { pattern: "*", path: "README.md" }, /README\.md is not a folder/],
  ])("refuses %s", async (_label, input, message) => {
    await expectToolError(globTool.execute(input, fx.ctx()), message);
  });
});
