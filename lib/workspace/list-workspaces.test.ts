import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { listWorkspaces } from "./list-workspaces";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pg-ws-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function tree(files: string[]): string {
  const root = fs.mkdtempSync(path.join(tmp, "root-"));
  for (const f of files) {
    const full = path.join(root, f);
    if (f.endsWith("/")) fs.mkdirSync(full, { recursive: true });
    else {
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, "x");
    }
  }
  return root;
}

describe("listWorkspaces", () => {
  it.each([
    ["a root of projects lists its sub-folders, sorted, without hidden ones", ["b/", "a/x.ts", ".cache/"], ["a", "b"]],
    ["a root that is a project lists itself first", ["package.json", "src/"], [".", "src"]],
    ["an empty root lists nothing", [], []],
  ])("%s", (_name, files, expected) => {
    const root = tree(files);
    expect(listWorkspaces([root]).map((w) => path.relative(root, w) || ".")).toEqual(expected);
  });

  it("skips a root that does not exist and keeps the others in order", () => {
    const one = tree(["p/"]);
    const two = tree(["q/"]);
    expect(listWorkspaces([one, path.join(tmp, "missing"), two])).toEqual([path.join(one, "p"), path.join(two, "q")]);
  });
});
