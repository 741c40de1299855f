import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectToolError, makeFileFixture, type FileFixture } from "../../tests/helpers/file-tools-fixture";
import { grepTool, MAX_GREP_MATCHES } from "./grep";

let fx: FileFixture;

beforeAll(async () => {
  fx = await makeFileFixture();
  await fx.put("src/a.ts", "const alpha = 1;\nfunction go() {}\nconst beta = 2;\n");
  await fx.put("src/b.tsx", "export function view() {}\n");
  await fx.put("notes.md", "function in prose\n");
  await fx.put("node_modules/x/index.ts", "function hidden() {}\n");
  await fx.put("bin.dat", new Uint8Array([102, 117, 110, 99, 0, 1]));
  await fx.put("huge.txt", `function\n${"x".repeat(1024 * 1024)}`);
  await fx.put("many.txt", "hit\n".repeat(MAX_GREP_MATCHES + 10));
  await fx.put("evil.txt", `${"a".repeat(40)}!\n`);
  await fx.put("secret.txt", "function secret() {}\n", fx.outside);
  await fs.symlink(path.join(fx.outside, "secret.txt"), path.join(fx.ws, "leak.ts"));
});

afterAll(() => fx.cleanup());

describe("grep asks", () => {
  it("asks grep with the regex", async () => {
    const asks = await grepTool.asks({ pattern: "function\\s+\\w+", include: "*.ts" }, fx.ctx());
    expect(asks).toEqual([
      {
        permission: "grep",
        patterns: ["function\\s+\\w+"],
        always: ["function\\s+\\w+"],
        readOnly: true,
        insideWorkspace: true,
        metadata: { pattern: "function\\s+\\w+", path: "." },
      },
    ]);
  });

  it("adds external_directory for an outside search folder", async () => {
    const asks = await grepTool.asks({ pattern: "x", path: "../outside" }, fx.boxed());
    expect(asks.map((a) => [a.permission, a.patterns])).toEqual([
      ["external_directory", [`${fx.outside}/*`]],
      ["grep", ["x"]],
    ]);
  });

  it("rejects an invalid regex before asking", async () => {
    await expectToolError(grepTool.asks({ pattern: "(unclosed" }, fx.ctx()), /Invalid regular expression/);
  });
});

describe("grep execute", () => {
  it.each([
    [
      "every file, grouped, skipping ignored folders, binaries, big files and symlinks",
      { pattern: "function" },
      "src/a.ts:2: function go() {}\n\nsrc/b.tsx:1: export function view() {}\n\nnotes.md:1: function in prose",
    ],
    ["an include glob", { pattern: "function", include: "*.tsx" }, "src/b.tsx:1: export function view() {}"],
    ["a sub folder", { pattern: "const", path: "src" }, "src/a.ts:1: const alpha = 1;\nsrc/a.ts:3: const beta = 2;"],
    ["one file", { pattern: "beta", path: "src/a.ts" }, "src/a.ts:3: const beta = 2;"],
    [
      "a regex",
      { pattern: "^const (alpha|beta) = [12];$" },
      "src/a.ts:1: const alpha = 1;\nsrc/a.ts:3: const beta = 2;",
    ],
    ["no match", { pattern: "zebra" }, "No matches found."],
  ])("searches %s", async (_label, input, expected) => {
    expect((await grepTool.execute(input, fx.ctx())).output).toBe(expected);
  });

  it("searches an outside folder by absolute path", async () => {
    const { output } = await grepTool.execute({ pattern: "secret", path: fx.outside }, fx.boxed());
    expect(output).toBe(`${path.join(fx.outside, "secret.txt")}:1: function secret() {}`);
  });

  it(`stops at ${MAX_GREP_MATCHES} matches with a note`, async () => {
    const { output, metadata } = await grepTool.execute({ pattern: "^hit$", path: "many.txt" }, fx.ctx());
    expect(output.split("\n").filter((l) => l.startsWith("many.txt:"))).toHaveLength(MAX_GREP_MATCHES);
    expect(output).toContain(`(showing the first ${MAX_GREP_MATCHES} matches`);
    expect(metadata).toMatchObject({ truncated: true });
  });

  it.each([
    ["an invalid regex", { pattern: "[a-" }, /Invalid regular expression/],
    ["a missing path", { pattern: "x", path: "nope" }, /File not found: nope/],
    ["an include glob with ..", { pattern: "x", include: "../*.ts" }, /must be relative/],
    ["look-around (not in RE2)", { pattern: "foo(?=bar)" }, /RE2 syntax/],
    ["a backreference (not in RE2)", { pattern: "(a)\\1" }, /RE2 syntax/],
  ])("refuses %s", async (_label, input, message) => {
    await expectToolError(grepTool.execute(input, fx.ctx()), message);
  });

  it("runs a regex that backtracks exponentially in JavaScript, in linear time (RE2)", async () => {
    // JavaScript's engine ran past its 1 s deadline on this line and the call failed; RE2 answers.
    const out = await grepTool.execute({ pattern: "^(a+)+$", path: "evil.txt" }, fx.ctx());
    expect(out.output).toBe("No matches found.");
  });
});
