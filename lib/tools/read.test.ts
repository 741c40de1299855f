import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectToolError, makeFileFixture, type FileFixture } from "../../tests/helpers/file-tools-fixture";
import { exactPathOptions } from "./file-common";
import { readTool } from "./read";

const exact = (p: string) => exactPathOptions([p]);
import { MAX_OUTPUT_CHARS } from "./types";

let fx: FileFixture;

beforeAll(async () => {
  fx = await makeFileFixture();
  await fx.put("src/a.ts", "one\ntwo\nthree\n");
  await fx.put("crlf.txt", "alpha\r\nbeta\r\n");
  await fx.put("empty.txt", "");
  await fx.put("long-line.txt", `${"x".repeat(2500)}\nshort\n`);
  // Short lines, so 2000 of them fit the output limit.
  await fx.put("many.txt", Array.from({ length: 3000 }, (_, i) => `L${i + 1}`).join("\n"));
  await fx.put("wide.txt", Array.from({ length: 100 }, () => "w".repeat(1000)).join("\n"));
  await fx.put("image.png", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2]));
  await fx.put("secret.txt", "top secret\n", fx.outside);
  await fs.symlink(path.join(fx.outside, "secret.txt"), path.join(fx.ws, "leak.txt"));
  execFileSync("mkfifo", [path.join(fx.ws, "pipe")]);
});

afterAll(() => fx.cleanup());

describe("read asks", () => {
  it("asks read on the workspace-relative path for a file inside", async () => {
    expect(await readTool.asks({ path: "./src/../src/a.ts" }, fx.ctx())).toEqual([
      {
        permission: "read",
        patterns: ["src/a.ts"],
        always: ["src/a.ts"],
        alwaysOptions: exact("src/a.ts"),
        readOnly: true,
        insideWorkspace: true,
      },
    ]);
  });

  it.each([
    ["../outside/secret.txt", () => "../outside/secret.txt"],
    ["an absolute outside path", () => path.join(fx.outside, "secret.txt")],
    ["a symlink escape", () => "leak.txt"],
  ])("asks external_directory then read for %s", async (_label, input) => {
    const target = path.join(fx.outside, "secret.txt");
    const asks = await readTool.asks({ path: input() }, fx.boxed());
    expect(asks).toEqual([
      {
        permission: "external_directory",
        patterns: [`${fx.outside}/*`],
        always: [`${fx.outside}/*`],
        readOnly: true,
        insideWorkspace: false,
        metadata: { path: target },
      },
      {
        permission: "read",
        patterns: [target],
        always: [target],
        alwaysOptions: exact(target),
        readOnly: true,
        insideWorkspace: false,
      },
    ]);
  });

  it.each([
    ["../outside/secret.txt", () => "../outside/secret.txt"],
    ["an absolute outside path", () => path.join(fx.outside, "secret.txt")],
    ["a symlink escape", () => "leak.txt"],
  ])("without the sandbox refuses %s before anyone is asked", async (_label, input) => {
    await expectToolError(
      readTool.asks({ path: input() }, fx.ctx()),
      /Without the sandbox .* reach only the workspace/,
    );
    await expectToolError(readTool.execute({ path: input() }, fx.ctx()), /Without the sandbox/);
  });
});

describe("read execute", () => {
  it("numbers lines and says where the file ends", async () => {
    const { output } = await readTool.execute({ path: "src/a.ts" }, fx.ctx());
    expect(output).toBe("     1\tone\n     2\ttwo\n     3\tthree\n\n(end of file: 3 lines)");
  });

  it("honours offset and limit and says how to continue", async () => {
    const { output } = await readTool.execute({ path: "many.txt", offset: 10, limit: 2 }, fx.ctx());
    expect(output).toBe("    10\tL10\n    11\tL11\n\n(lines 10-11 shown; more follow: continue with offset=12)");
  });

  it("shows 2000 lines by default", async () => {
    const { output } = await readTool.execute({ path: "many.txt", offset: 1001 }, fx.ctx());
    expect(output).toContain("  3000\tL3000\n\n(end of file: 3000 lines)");
    const { output: head } = await readTool.execute({ path: "many.txt", offset: 1000 }, fx.ctx());
    expect(head).toContain("  2999\tL2999\n\n(lines 1000-2999 shown; more follow: continue with offset=3000)");
  });

  it("shows CRLF files without the carriage returns", async () => {
    const { output } = await readTool.execute({ path: "crlf.txt" }, fx.ctx());
    expect(output).not.toContain("\r");
    expect(output).toContain("     2\tbeta");
  });

  it("cuts long lines at 2000 characters", async () => {
    const { output } = await readTool.execute({ path: "long-line.txt" }, fx.ctx());
    const first = output.split("\n")[0] ?? "";
    expect(first).toBe(`     1\t${"x".repeat(2000)}… [line cut at 2000 characters]`);
  });

  it("stops at the output limit on a whole line and says where to continue", async () => {
    const { output } = await readTool.execute({ path: "wide.txt" }, fx.ctx());
    expect(output.length).toBeLessThanOrEqual(MAX_OUTPUT_CHARS);
    const m = /\(output limit reached: lines 1-(\d+) shown; continue with offset=(\d+)\)$/.exec(output);
    expect(Number(m?.[2])).toBe(Number(m?.[1]) + 1);
    expect(output).toContain(`${String(m?.[1]).padStart(6)}\t${"w".repeat(1000)}\n`);
  });

  it("says so for an empty file", async () => {
    expect((await readTool.execute({ path: "empty.txt" }, fx.ctx())).output).toBe("(empty.txt is empty)");
  });

  it("reads an outside file once asked (through its symlink), in a view of that folder only", async () => {
    const ctx = fx.boxed();
    await readTool.asks({ path: "leak.txt" }, ctx);
    expect((await readTool.execute({ path: "leak.txt" }, ctx)).output).toContain("top secret");
  });

  it.each([
    ["a missing file", { path: "nope/missing.ts" }, /File not found: nope\/missing\.ts/],
    ["a directory", { path: "src" }, /src is a directory; use the list tool/],
    ["a binary file", { path: "image.png" }, /image\.png is a binary file/],
    [
      "an offset past the end",
      { path: "src/a.ts", offset: 9 },
      /offset 9 is past the end of src\/a\.ts, which has 3 lines/,
    ],
    ["a NUL in the path", { path: "a\0b" }, /NUL/],
    ["a FIFO (without hanging)", { path: "pipe" }, /pipe is not a regular file/],
  ])("refuses %s with a ToolError", async (_label, input, message) => {
    await expectToolError(readTool.execute(input, fx.ctx()), message);
  });

  it("refuses when the path changed between asks and execute", async () => {
    await fx.put("swap.txt", "inside\n");
    const ctx = fx.ctx();
    await readTool.asks({ path: "swap.txt" }, ctx);
    await fs.rm(path.join(fx.ws, "swap.txt"));
    await fs.symlink(path.join(fx.outside, "secret.txt"), path.join(fx.ws, "swap.txt"));
    await expect(readTool.execute({ path: "swap.txt" }, ctx)).rejects.toThrow(/resolves to a different location/);
  });
});
