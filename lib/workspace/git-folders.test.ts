import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { controlTargets, underTarget } from "./control-paths";
import { gitFolderTargets } from "./git-folders";

let ws: string;
beforeEach(() => {
  ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-gitdir-")));
});
afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

const make = (...entries: string[]) => {
  for (const e of entries) {
    const full = path.join(ws, e);
    if (e.endsWith("/")) fs.mkdirSync(full, { recursive: true });
    else {
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, e.endsWith("HEAD") ? "ref: refs/heads/main\n" : "");
    }
  }
};
/** Is a write of `rel` control, judged as the file tools judge it (the written path counted as there)? */
const control = (rel: string) => underTarget(rel, controlTargets(ws, rel));

describe("a folder that is or would become a git folder, whatever its name", () => {
  it("one that passes git's test (HEAD, objects/, refs/) is control whole, at any depth", () => {
    make("vendor/tool/HEAD", "vendor/tool/objects/", "vendor/tool/refs/");
    for (const rel of ["vendor/tool/config", "vendor/tool/hooks/pre-commit", "vendor/tool/description"])
      expect([rel, control(rel)]).toEqual([rel, true]);
    expect(control("vendor/other.txt")).toBe(false);
    expect(gitFolderTargets(ws, "vendor/tool/config").gitDirs).toEqual([path.join(ws, "vendor/tool")]);
  });

  it("HEAD with commondir passes too; objects/ and refs/ through links count as git follows them", () => {
    make("a/HEAD", "a/commondir", "b/HEAD", "b/refs/", "store/objects/");
    fs.symlinkSync("../store/objects", path.join(ws, "b/objects"));
    expect(control("a/config")).toBe(true);
    expect(control("b/config")).toBe(true);
  });

  it("one member and a write that brings a second asks, in any order; one member alone is an ordinary name", () => {
    expect(control("vendor/tool/HEAD")).toBe(false);
    make("vendor/tool/HEAD");
    for (const rel of ["vendor/tool/config", "vendor/tool/objects/.keep", "vendor/tool/refs/.keep"])
      expect([rel, control(rel)]).toEqual([rel, true]);
    // Not a git folder yet: what git would not read there stays ordinary.
    expect(control("vendor/tool/README.md")).toBe(false);
    make("other/config");
    expect(control("other/HEAD")).toBe(true);
    expect(control("other/notes.txt")).toBe(false);
    // A project's own `refs/` or `objects/` folder, or a file named config, is not a git folder.
    make("docs/refs/", "src/objects/");
    expect(control("docs/refs/a.md")).toBe(false);
    expect(control("src/objects/user.ts")).toBe(false);
    expect(control("lib/config")).toBe(false);
    // …but a config beside objects/ is two of git's names: one HEAD away.
    expect(control("src/config")).toBe(true);
  });

  it("the workspace itself: what makes it one, and its settings, are control, not every file in it", () => {
    make("HEAD", "objects/", "refs/");
    expect(control("config")).toBe(true);
    expect(control("hooks/pre-commit")).toBe(true);
    expect(control("src/a.ts")).toBe(false);
  });

  it("a bare repository's config points at programs relative to its own folder (or its core.worktree)", () => {
    make("vendor/tool/HEAD", "vendor/tool/objects/", "vendor/tool/refs/");
    fs.writeFileSync(
      path.join(ws, "vendor/tool/config"),
      '[core]\n\tfsmonitor = "sh fsm.sh"\n\tworktree = ../..\n[alias]\n\tx = !./run.sh\n',
    );
    const targets = controlTargets(ws, "vendor/tool/config");
    expect(targets).toEqual(expect.arrayContaining(["vendor/tool/fsm.sh", "fsm.sh", "run.sh"]));
  });

  // Each folder's members are kept while its ctime stays the same, once older than the racy window (ctime cannot be
  // set back): what is added later, and a linked member whose target appears later, must still be seen.
  it("members added after a folder was last looked at, and a link's target that appears later, are seen", async () => {
    make("vendor/tool/HEAD", "vendor/tool/refs/", "store/");
    fs.symlinkSync("../../store/objects", path.join(ws, "vendor/tool/objects"));
    make("other/HEAD");
    await new Promise((r) => setTimeout(r, 2_100));
    expect(control("vendor/tool/README.md")).toBe(false);
    expect(control("other/README.md")).toBe(false);
    make("store/objects/", "other/objects/", "other/refs/");
    expect(control("vendor/tool/README.md")).toBe(true);
    expect(control("other/README.md")).toBe(true);
  });
});
