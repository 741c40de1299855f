import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { settle, startScripted, testApi, type Api } from "../helpers/api";
import { sandboxForSuite } from "../helpers/sandbox";

/*
 * Adversary, issue 41 class 3: "whatever the repository's git config points at inside the workspace", and "a git
 * folder that a `gitdir:` file or `commondir` leads to", are control. The file tools look at two repositories only:
 * the one at or around the workspace and the one holding the written path. Git finds repositories by itself:
 *
 *  A. An embedded bare repository: a folder holding HEAD, config, objects/ and refs/ IS a git folder to git run
 *     inside it (a shell prompt showing the branch, an editor opening the folder, `git status`). In acceptEdits the
 *     agent writes one with `core.fsmonitor` set, unasked; git run there runs the fsmonitor command on the host.
 *  B. A `gitdir:` file of a nested working tree (`sub/.git` → `gitstuff/`): gitstuff's hooks and config are that
 *     repository's, but a write to `gitstuff/hooks/pre-commit` is judged against no repository, and is not asked.
 */
sandboxForSuite();
let api: Api;
const marker = path.join(os.tmpdir(), `plangate-fsmonitor-pwned-${process.pid}`);
afterEach(async () => {
  fs.rmSync(marker, { force: true });
  await api?.close();
});

async function writeAll(files: Record<string, string>, mode = "acceptEdits"): Promise<string[]> {
  const id = await startScripted(
    api,
    [
      {
        toolCalls: Object.entries(files).map(([p, content]) => ({ name: "write", input: { path: p, content } })),
      },
      { text: "done" },
    ],
    { mode },
  );
  await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
  await settle(api, id);
  // Written: the file now holds what the agent sent (gitstuff/config exists before, made by `git init`).
  return Object.entries(files)
    .filter(([p, content]) => {
      const file = path.join(api.workspace, p);
      return fs.existsSync(file) && fs.readFileSync(file, "utf8") === content;
    })
    .map(([p]) => p);
}

describe("repositories git finds by itself", () => {
  it("A. an embedded bare repository written by the file tools runs its fsmonitor when git runs in it", async () => {
    api = testApi();
    execFileSync("git", ["init", "-q"], { cwd: api.workspace });
    const written = await writeAll({
      "vendor/tool/HEAD": "ref: refs/heads/main\n",
      "vendor/tool/config": `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n\tfsmonitor = "touch ${marker}; false"\n`,
      "vendor/tool/objects/.keep": "",
      "vendor/tool/refs/.keep": "",
    });
    // The person (or their prompt, or their editor) runs git in that folder.
    spawnSync("git", ["status"], { cwd: path.join(api.workspace, "vendor/tool"), encoding: "utf8" });
    expect(fs.existsSync(marker), `host command ran; written unasked: ${written.join(", ")}`).toBe(false);
    // The config that makes it run is a control file: it asks.
    expect(written).not.toContain("vendor/tool/config");
  });

  it("A'. the same bare repository made by a shell command in auto mode is not quarantined", async () => {
    api = testApi({ env: { PLANGATE_AUTO_GATE: "open" } });
    execFileSync("git", ["init", "-q"], { cwd: api.workspace });
    const id = await startScripted(
      api,
      [
        {
          toolCalls: [
            {
              name: "bash",
              input: {
                command: `mkdir -p vendor/tool/objects vendor/tool/refs && printf 'ref: refs/heads/main\\n' > vendor/tool/HEAD && printf '[core]\\n\\tbare = false\\n\\tworktree = .\\n\\tfsmonitor = "touch ${marker}; false"\\n' > vendor/tool/config`,
              },
            },
          ],
        },
        { text: "done" },
      ],
      { mode: "auto" },
    );
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    await settle(api, id);
    spawnSync("git", ["status"], { cwd: path.join(api.workspace, "vendor/tool"), encoding: "utf8" });
    expect(fs.existsSync(path.join(api.workspace, "vendor/tool/config")), "the planted git config stayed").toBe(false);
    expect(fs.existsSync(marker), "host command ran").toBe(false);
  });

  it("B. the git folder a nested working tree's `.git` file leads to is control (hooks, config)", async () => {
    api = testApi();
    execFileSync("git", ["init", "-q", `--separate-git-dir=${path.join(api.workspace, "gitstuff")}`, "sub"], {
      cwd: api.workspace,
    });
    expect(fs.readFileSync(path.join(api.workspace, "sub/.git"), "utf8")).toMatch(/^gitdir: /);
    const written = await writeAll({
      "gitstuff/hooks/pre-commit": `#!/bin/sh\ntouch ${marker}\n`,
      "gitstuff/config": `[core]\n\tfsmonitor = "touch ${marker}; false"\n`,
    });
    expect(written, "written without asking").toEqual([]);
  });
});
