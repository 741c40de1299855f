import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectToolError, makeFileFixture, type FileFixture } from "../../tests/helpers/file-tools-fixture";
import { exactPathOptions } from "./file-common";
import { listTool, MAX_LIST_ENTRIES } from "./list";

let fx: FileFixture;

beforeAll(async () => {
  fx = await makeFileFixture();
  for (const rel of [
    "b.txt",
    "a.txt",
    "src/z.ts",
    "src/lib/y.ts",
    "node_modules/pkg/index.js",
    ".git/HEAD",
    "dist/out.js",
  ]) {
    await fx.put(rel, "x\n");
  }
  // Outside the workspace, so the root listing below is not cut by it.
  for (let i = 0; i < MAX_LIST_ENTRIES + 20; i++) await fx.put(`big/f${String(i).padStart(4, "0")}.txt`, "", fx.root);
  await fs.mkdir(path.join(fx.ws, "empty"));
  await fx.put("o.txt", "", fx.outside);
  await fs.symlink(fx.outside, path.join(fx.ws, "out-link"));
});

afterAll(() => fx.cleanup());

describe("list asks", () => {
  it.each([
    ["the workspace by default", undefined, "."],
    ["a subfolder", "src/", "src"],
  ])("asks list on %s", async (_label, input, pattern) => {
    expect(await listTool.asks(input === undefined ? {} : { path: input }, fx.ctx())).toEqual([
      {
        permission: "list",
        patterns: [pattern],
        always: [pattern],
        alwaysOptions: exactPathOptions([pattern]),
        readOnly: true,
        insideWorkspace: true,
      },
    ]);
  });

  it.each([
    ["../outside", "../outside"],
    ["a symlinked folder escape", "out-link"],
  ])("asks external_directory for the folder itself for %s", async (_label, input) => {
    const asks = await listTool.asks({ path: input }, fx.boxed());
    expect(asks.map((a) => [a.permission, a.patterns, a.insideWorkspace])).toEqual([
      ["external_directory", [`${fx.outside}/*`], false],
      ["list", [fx.outside], false],
    ]);
  });
});

describe("list execute", () => {
  it("prints a sorted tree, folders first, skipping generated folders", async () => {
    const { output } = await listTool.execute({ path: "." }, fx.ctx());
    expect(output).toBe(
      ["./", "  empty/", "  src/", "    lib/", "      y.ts", "    z.ts", "  a.txt", "  b.txt", "  out-link@"].join(
        "\n",
      ),
    );
  });

  it(`stops at ${MAX_LIST_ENTRIES} entries with a note`, async () => {
    const { output, metadata } = await listTool.execute({ path: path.join(fx.root, "big") }, fx.boxed());
    expect(output.split("\n").filter((l) => l.startsWith("  f"))).toHaveLength(MAX_LIST_ENTRIES);
    expect(output).toContain(`(listing cut at ${MAX_LIST_ENTRIES} entries; list a subfolder to see more)`);
    expect(metadata).toMatchObject({ entries: MAX_LIST_ENTRIES, truncated: true });
  });

  it("marks an empty folder", async () => {
    expect((await listTool.execute({ path: "empty" }, fx.ctx())).output).toBe("empty/\n  (empty)");
  });

  it("lists an outside folder by its real path", async () => {
    expect((await listTool.execute({ path: "out-link" }, fx.boxed())).output).toBe(`${fx.outside}/\n  o.txt`);
  });

  it.each([
    ["a file", "a.txt", /a\.txt is not a folder; use the read tool/],
    ["a missing folder", "nope", /File not found: nope/],
  ])("refuses %s", async (_label, input, message) => {
    await expectToolError(listTool.execute({ path: input }, fx.ctx()), message);
  });
});
