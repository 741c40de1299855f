import { execFileSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { expectToolError, makeFileFixture, type FileFixture } from "../../tests/helpers/file-tools-fixture";
import { editTool } from "./edit";

let fx: FileFixture;

beforeAll(async () => {
  fx = await makeFileFixture();
  execFileSync("mkfifo", [path.join(fx.ws, "pipe")]);
});

beforeEach(async () => {
  await fx.put("src/a.ts", "const a = 1;\nconst b = 2;\nconst a2 = 1;\n");
  await fx.put("dup.txt", "x\nx\nx\n");
  await fx.put("empty.txt", "");
  await fx.put("crlf.txt", "one\r\ntwo\r\nthree\r\n");
  await fx.put("bin.dat", new Uint8Array([1, 0, 2]));
  await fx.put("o.txt", "outside\n", fx.outside);
});

afterAll(() => fx.cleanup());

describe("edit asks", () => {
  it("asks edit with the diff of the change", async () => {
    const [ask, ...rest] = await editTool.asks({ path: "src/a.ts", oldString: "b = 2", newString: "b = 3" }, fx.ctx());
    expect(rest).toEqual([]);
    expect(ask).toMatchObject({
      permission: "edit",
      patterns: ["src/a.ts"],
      always: ["src/a.ts"],
      readOnly: false,
      planFile: false,
      insideWorkspace: true,
      metadata: { path: "src/a.ts" },
    });
    expect(String(ask?.metadata?.diff)).toMatch(/-const b = 2;\n\+const b = 3;/);
  });

  it("adds external_directory for an outside file", async () => {
    const asks = await editTool.asks({ path: "../outside/o.txt", oldString: "outside", newString: "x" }, fx.boxed());
    expect(asks.map((a) => [a.permission, a.patterns])).toEqual([
      ["external_directory", [`${fx.outside}/*`]],
      ["edit", [path.join(fx.outside, "o.txt")]],
    ]);
  });

  it("does not tell the model whether oldString is in the file before permission", async () => {
    const asks = await editTool.asks({ path: "../outside/o.txt", oldString: "nope", newString: "x" }, fx.boxed());
    expect(String(asks[1]?.metadata?.diff)).toContain("read only once a person allowed its folder");
  });

  it("sets planFile for the plan file", async () => {
    const ctx = fx.ctx({ planFile: path.join(fx.ws, "src/a.ts") });
    const asks = await editTool.asks({ path: "src/a.ts", oldString: "a", newString: "z", replaceAll: true }, ctx);
    expect(asks[0]?.planFile).toBe(true);
  });
});

describe("edit execute", () => {
  it("replaces a unique string and returns the diff", async () => {
    const { output } = await editTool.execute(
      { path: "src/a.ts", oldString: "const b = 2;", newString: "const b = 3;" },
      fx.ctx(),
    );
    expect(output).toMatch(/^Edited src\/a\.ts: replaced 1 occurrence\.\n\n/);
    expect(output).toContain("+const b = 3;");
    expect(await fx.text("src/a.ts")).toBe("const a = 1;\nconst b = 3;\nconst a2 = 1;\n");
  });

  it("replaces every occurrence with replaceAll", async () => {
    const { output } = await editTool.execute(
      { path: "dup.txt", oldString: "x", newString: "y", replaceAll: true },
      fx.ctx(),
    );
    expect(output).toMatch(/replaced 3 occurrences/);
    expect(await fx.text("dup.txt")).toBe("y\ny\ny\n");
  });

  it("inserts $-sequences literally", async () => {
    await editTool.execute({ path: "src/a.ts", oldString: "b = 2", newString: "b = $& + $1" }, fx.ctx());
    expect(await fx.text("src/a.ts")).toContain("const b = $& + $1;");
  });

  it("matches a CRLF file with the bare newlines read showed", async () => {
    await editTool.execute({ path: "crlf.txt", oldString: "one\ntwo", newString: "1\n2" }, fx.ctx());
    expect(await fx.text("crlf.txt")).toBe("1\r\n2\r\nthree\r\n");
  });

  it.each([
    ["a new file", "new/file.ts", "Created new/file.ts (1 line)."],
    ["an empty file", "empty.txt", "Filled the empty file empty.txt (1 line)."],
  ])("creates %s from an empty oldString", async (_label, file, summary) => {
    const { output } = await editTool.execute({ path: file, oldString: "", newString: "hello\n" }, fx.ctx());
    expect(output.split("\n")[0]).toBe(summary);
    expect(await fx.text(file)).toBe("hello\n");
  });

  it.each([
    [
      "oldString not found",
      { path: "src/a.ts", oldString: "nope", newString: "x" },
      /not found in src\/a\.ts; read the file first/,
    ],
    ["oldString found several times", { path: "dup.txt", oldString: "x", newString: "y" }, /found 3 times in dup\.txt/],
    ["identical strings", { path: "src/a.ts", oldString: "a", newString: "a" }, /identical/],
    [
      "an empty oldString on a non-empty file",
      { path: "src/a.ts", oldString: "", newString: "x" },
      /already exists and is not empty/,
    ],
    ["a missing file", { path: "missing.ts", oldString: "a", newString: "b" }, /File not found: missing\.ts/],
    ["a directory", { path: "src", oldString: "a", newString: "b" }, /src is a directory/],
    ["a binary file", { path: "bin.dat", oldString: "a", newString: "b" }, /binary file/],
    ["a FIFO (without hanging)", { path: "pipe", oldString: "a", newString: "b" }, /pipe is not a regular file/],
  ])("refuses %s and leaves the file alone", async (_label, input, message) => {
    const before = await fx.text("src/a.ts");
    await expectToolError(editTool.execute(input, fx.ctx()), message);
    expect(await fx.text("src/a.ts")).toBe(before);
  });

  it("refuses in a read-only call", async () => {
    await expectToolError(
      editTool.execute({ path: "src/a.ts", oldString: "a = 1", newString: "a = 9" }, fx.ctx({ readOnly: true })),
      /read-only/,
    );
  });
});
