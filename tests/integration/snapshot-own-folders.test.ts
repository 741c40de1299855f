import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "../../lib/env";
import { snapshotTree } from "../../lib/verify/git-snapshot";

// Issue 43: an approval's snapshot of a git workspace hashed every session's plan file under .plangate/plans (and
// a data folder kept inside the workspace) on every approval, so its cost grew with the workspace's history. They
// are Plangate's own: the tree leaves them out, and still holds the work, .plangate's config included.
let ws = "";
const dataDir = process.env.PLANGATE_DATA_DIR;
afterEach(() => {
  fs.rmSync(ws, { recursive: true, force: true });
  if (dataDir === undefined) delete process.env.PLANGATE_DATA_DIR;
  else process.env.PLANGATE_DATA_DIR = dataDir;
  resetEnvCache();
});

describe("a git workspace's snapshot", () => {
  it("leaves out .plangate/plans and a data folder inside the workspace", async () => {
    ws = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-snap-"));
    execFileSync("git", ["init", "-q", ws]);
    const files = [
      ".plangate/plans/p0.md",
      ".plangate/config.json",
      "state/plangate.db",
      "docs/.plangate/x.md",
      "a.ts",
    ];
    for (let i = 1; i < 40; i++) files.push(`.plangate/plans/p${i}.md`);
    for (const f of files) {
      fs.mkdirSync(path.dirname(path.join(ws, f)), { recursive: true });
      fs.writeFileSync(path.join(ws, f), `${f}\n`);
    }
    process.env.PLANGATE_DATA_DIR = path.join(ws, "state");
    resetEnvCache();
    const tree = await snapshotTree(ws);
    expect(tree).toMatch(/^[0-9a-f]{40,64}$/);
    const listed = execFileSync("git", ["-C", ws, "ls-tree", "-r", "--name-only", tree as string], {
      encoding: "utf8",
    });
    // .plangate's config stays in: a change to it is work verification must see.
    expect(listed.trim().split("\n").sort()).toEqual([".plangate/config.json", "a.ts", "docs/.plangate/x.md"]);
  });
});
