import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { expectToolError, makeFileFixture, type FileFixture } from "../../tests/helpers/file-tools-fixture";
import { applyPatchTool } from "./apply-patch";
import { exactPathOptions } from "./file-common";

let fx: FileFixture;

const MULTI = `diff --git a/src/one.ts b/src/one.ts
index 1111111..2222222 100644
--- a/src/one.ts
+++ b/src/one.ts
@@ -1,3 +1,3 @@
 const a = 1;
-const b = 2;
+const b = 20;
 const c = 3;
diff --git a/src/two.ts b/src/two.ts
--- a/src/two.ts
+++ b/src/two.ts
@@ -1,2 +1,3 @@
 export {};
+// added
 // end
diff --git a/src/new.ts b/src/new.ts
new file mode 100644
--- /dev/null
+++ b/src/new.ts
@@ -0,0 +1,2 @@
+export const fresh = true;
+// new
diff --git a/old.txt b/old.txt
deleted file mode 100644
--- a/old.txt
+++ /dev/null
@@ -1,1 +0,0 @@
-goodbye
`;

const BAD_SECOND = `--- a/src/one.ts
+++ b/src/one.ts
@@ -1,3 +1,3 @@
 const a = 1;
-const b = 2;
+const b = 20;
 const c = 3;
--- a/src/two.ts
+++ b/src/two.ts
@@ -1,2 +1,2 @@
 export {};
-// not what the file says
+// x
`;

beforeAll(async () => {
  fx = await makeFileFixture();
});

beforeEach(async () => {
  await fs.rm(fx.ws, { recursive: true, force: true });
  await fs.mkdir(fx.ws);
  await fx.put("src/one.ts", "const a = 1;\nconst b = 2;\nconst c = 3;\n");
  await fx.put("src/two.ts", "export {};\n// end\n");
  await fx.put("old.txt", "goodbye\n");
  await fx.put("o.txt", "out\n", fx.outside);
});

afterAll(() => fx.cleanup());

describe("apply_patch asks", () => {
  it("asks one edit for every file, with the patch as the diff", async () => {
    expect(await applyPatchTool.asks({ patch: MULTI }, fx.ctx())).toEqual([
      {
        permission: "edit",
        patterns: ["src/one.ts", "src/two.ts", "src/new.ts", "old.txt"],
        always: ["src/one.ts", "src/two.ts", "src/new.ts", "old.txt"],
        alwaysOptions: exactPathOptions(["src/one.ts", "src/two.ts", "src/new.ts", "old.txt"]),
        control: [],
        readOnly: false,
        planFile: false,
        insideWorkspace: true,
        metadata: { files: ["src/one.ts", "src/two.ts", "src/new.ts", "old.txt"], diff: MULTI },
      },
    ]);
  });

  it("adds one external_directory ask per outside folder", async () => {
    const patch = `--- a/../outside/o.txt\n+++ b/../outside/o.txt\n@@ -1 +1 @@\n-out\n+OUT\n--- /dev/null\n+++ b/../outside/p.txt\n@@ -0,0 +1 @@\n+p\n`;
    const asks = await applyPatchTool.asks({ patch }, fx.boxed());
    const o = path.join(fx.outside, "o.txt");
    const p = path.join(fx.outside, "p.txt");
    expect(asks.map((a) => [a.permission, a.patterns, a.insideWorkspace])).toEqual([
      ["external_directory", [`${fx.outside}/*`], false],
      ["edit", [o, p], false],
    ]);
  });

  it.each([
    ["only the plan file", "plan.md", true],
    ["the plan file and another", "plan.md,src/one.ts", false],
  ])("sets planFile when the patch touches %s", async (_label, files, expected) => {
    const patch = files
      .split(",")
      .map((f) => `--- /dev/null\n+++ b/${f}.new\n@@ -0,0 +1 @@\n+x\n`)
      .join("");
    const ctx = fx.ctx({ planFile: path.join(fx.ws, "plan.md.new") });
    expect((await applyPatchTool.asks({ patch }, ctx)).map((a) => a.planFile)).toEqual([expected]);
  });

  it("rejects text that is not a patch", async () => {
    await expectToolError(applyPatchTool.asks({ patch: "just some words" }, fx.ctx()), /no file changes/);
  });
});

describe("apply_patch execute", () => {
  it("modifies two files, creates one and deletes one", async () => {
    const { output } = await applyPatchTool.execute({ patch: MULTI }, fx.ctx());
    expect(output).toBe("Applied the patch to 4 files:\nM src/one.ts\nM src/two.ts\nA src/new.ts\nD old.txt");
    expect(await fx.text("src/one.ts")).toBe("const a = 1;\nconst b = 20;\nconst c = 3;\n");
    expect(await fx.text("src/two.ts")).toBe("export {};\n// added\n// end\n");
    expect(await fx.text("src/new.ts")).toBe("export const fresh = true;\n// new\n");
    expect(await fx.exists("old.txt")).toBe(false);
  });

  it("writes nothing when one hunk does not apply, and names the file and hunk", async () => {
    await expectToolError(
      applyPatchTool.execute({ patch: BAD_SECOND }, fx.ctx()),
      /Hunk 1 of 1 \(@@ -1,2 \+1,2 @@\) does not apply to src\/two\.ts/,
    );
    expect(await fx.text("src/one.ts")).toBe("const a = 1;\nconst b = 2;\nconst c = 3;\n");
  });

  it("accepts plain (non-git) headers without a/ b/ prefixes", async () => {
    const patch = `--- src/two.ts\n+++ src/two.ts\n@@ -1,2 +1,2 @@\n-export {};\n+export { x };\n // end\n`;
    await applyPatchTool.execute({ patch }, fx.ctx());
    expect(await fx.text("src/two.ts")).toBe("export { x };\n// end\n");
  });

  it("renames a file", async () => {
    const patch = `diff --git a/old.txt b/moved/new.txt\nsimilarity index 100%\nrename from old.txt\nrename to moved/new.txt\n`;
    const { output } = await applyPatchTool.execute({ patch }, fx.ctx());
    expect(output).toContain("R old.txt → moved/new.txt");
    expect(await fx.text("moved/new.txt")).toBe("goodbye\n");
    expect(await fx.exists("old.txt")).toBe(false);
  });

  it.each([
    [
      "creating a file that exists",
      `--- /dev/null\n+++ b/src/two.ts\n@@ -0,0 +1 @@\n+x\n`,
      /Cannot create src\/two\.ts: it already exists/,
    ],
    ["modifying a missing file", `--- a/nope.ts\n+++ b/nope.ts\n@@ -1 +1 @@\n-a\n+b\n`, /File not found: nope\.ts/],
    ["deleting a missing file", `--- a/nope.ts\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n`, /File not found: nope\.ts/],
    [
      "a deletion that leaves content",
      `--- a/src/two.ts\n+++ /dev/null\n@@ -1 +0,0 @@\n-export {};\n`,
      /do not remove all of its content/,
    ],
    ["a malformed hunk", `--- a/src/two.ts\n+++ b/src/two.ts\n@@ -1,5 +1,5 @@\n-a\n+b\n`, /Could not parse the patch/],
    ["a binary change", `diff --git a/i.png b/i.png\nBinary files a/i.png and b/i.png differ\n`, /Binary changes/],
    ["a hunk without headers", `@@ -1 +1 @@\n-a\n+b\n`, /no file to apply to/],
  ])("refuses %s and writes nothing", async (_label, patch, message) => {
    // After a valid multi-file patch, so "nothing" covers the files that would have applied.
    const full = patch.startsWith("@@") ? patch : MULTI + patch;
    await expectToolError(applyPatchTool.execute({ patch: full }, fx.ctx()), message);
    expect(await fx.text("src/one.ts")).toContain("const b = 2;");
    expect(await fx.exists("old.txt")).toBe(true);
    expect(await fx.exists("src/new.ts")).toBe(false);
  });

  it("refuses in a read-only call unless every file is the plan file", async () => {
    const ctx = fx.ctx({ readOnly: true, planFile: path.join(fx.ws, "src/one.ts") });
    await expectToolError(applyPatchTool.execute({ patch: MULTI }, ctx), /read-only/);
    const only = MULTI.slice(0, MULTI.indexOf("diff --git a/src/two.ts"));
    await applyPatchTool.execute({ patch: only }, fx.ctx({ readOnly: true, planFile: path.join(fx.ws, "src/one.ts") }));
    expect(await fx.text("src/one.ts")).toContain("const b = 20;");
  });

  it("patches an outside file through a symlinked folder at its real path", async () => {
    await fs.symlink(fx.outside, path.join(fx.ws, "out-link"));
    const patch = `--- a/out-link/o.txt\n+++ b/out-link/o.txt\n@@ -1 +1 @@\n-out\n+OUT\n`;
    const ctx = fx.boxed();
    expect((await applyPatchTool.asks({ patch }, ctx)).at(-1)?.patterns).toEqual([path.join(fx.outside, "o.txt")]);
    expect((await applyPatchTool.execute({ patch }, ctx)).output).toContain(`M ${path.join(fx.outside, "o.txt")}`);
    expect(await fx.text("o.txt", fx.outside)).toBe("OUT\n");
  });
});
