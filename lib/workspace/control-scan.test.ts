import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { scanControls } from "./control-scan";

let ws = "";
afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

const rel = (list: string[]) => list.map((p) => path.relative(ws, p)).sort();

describe("scanControls", () => {
  it("finds control entries at every depth, not inside control folders, not in dependency folders, not through links", () => {
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-scan-")));
    for (const f of [
      "a/b/.envrc",
      ".claude/inner/AGENTS.md",
      "node_modules/x/AGENTS.md",
      "crates/app/.cargo/config.toml",
      "sub/.git/config",
      ".github/workflows/ci.yml",
      ".github/CODEOWNERS",
      "src/x.ts",
    ]) {
      fs.mkdirSync(path.dirname(path.join(ws, f)), { recursive: true });
      fs.writeFileSync(path.join(ws, f), "");
    }
    fs.symlinkSync("a", path.join(ws, "link"));
    const scan = scanControls(ws);
    expect(rel(scan.entries)).toEqual([".claude", ".github/workflows", "a/b/.envrc", "crates/app/.cargo", "sub/.git"]);
    expect(scan.repos.map((r) => path.relative(ws, r.worktree))).toEqual(["sub"]);
  });

  // Folders older than the racy window are taken from the last walk when their ctime is unchanged: what appears
  // below them must still be found. The wait lets the fixture's folders leave that window (ctime cannot be set).
  it("a later walk that reuses unchanged folders still finds what appeared deep below them", async () => {
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-scan-")));
    fs.mkdirSync(path.join(ws, "a/b/c"), { recursive: true });
    fs.mkdirSync(path.join(ws, "d"));
    await new Promise((r) => setTimeout(r, 2_100));
    expect(scanControls(ws).entries).toEqual([]);
    fs.writeFileSync(path.join(ws, "a/b/c/.envrc"), "");
    fs.mkdirSync(path.join(ws, "d/e/.cargo"), { recursive: true });
    expect(rel(scanControls(ws).entries)).toEqual(["a/b/c/.envrc", "d/e/.cargo"]);
    fs.rmSync(path.join(ws, "a/b/c/.envrc"));
    expect(rel(scanControls(ws).entries)).toEqual(["d/e/.cargo"]);
  });

  it("a folder that passes git's test is one entry, whatever its name and depth, and a repository; the workspace itself by its HEAD and settings", () => {
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-scan-")));
    for (const d of ["vendor/tool/objects", "vendor/tool/refs", "half/refs", "half/objects", "lone/refs"])
      fs.mkdirSync(path.join(ws, d), { recursive: true });
    fs.writeFileSync(path.join(ws, "vendor/tool/HEAD"), "ref: refs/heads/main\n");
    fs.writeFileSync(path.join(ws, "vendor/tool/config"), "");
    fs.writeFileSync(path.join(ws, "half/config"), "");
    const scan = scanControls(ws);
    expect(rel(scan.entries)).toEqual(["vendor/tool"]);
    expect(rel(scan.gitDirs)).toEqual(["vendor/tool"]);
    expect(scan.repos.map((r) => path.relative(ws, r.dotGit))).toEqual(["vendor/tool"]);
    // A HEAD makes `half` one; the workspace's own objects/ and refs/ are data, its HEAD and config the entries.
    fs.writeFileSync(path.join(ws, "half/HEAD"), "ref: refs/heads/main\n");
    for (const d of ["objects", "refs"]) fs.mkdirSync(path.join(ws, d));
    fs.writeFileSync(path.join(ws, "HEAD"), "ref: refs/heads/main\n");
    fs.writeFileSync(path.join(ws, "config"), "");
    expect(rel(scanControls(ws).entries)).toEqual(["HEAD", "config", "half", "vendor/tool"]);
  });

  it("objects/ through a link that leads nowhere yet: the folder is read again, and found once the link leads to a folder", async () => {
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-scan-")));
    fs.mkdirSync(path.join(ws, "g/refs"), { recursive: true });
    fs.writeFileSync(path.join(ws, "g/HEAD"), "ref: refs/heads/main\n");
    fs.symlinkSync("../store", path.join(ws, "g/objects"));
    await new Promise((r) => setTimeout(r, 2_100));
    expect(scanControls(ws).entries).toEqual([]);
    expect(scanControls(ws).entries).toEqual([]);
    fs.mkdirSync(path.join(ws, "store"));
    expect(rel(scanControls(ws).entries)).toEqual(["g"]);
  });
});
