import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, results, settle, startScripted, testApi, type Api } from "../helpers/api";
import { driveAnswering } from "../helpers/boundary";
import { sandboxForSuite } from "../helpers/sandbox";
import { CONTROL_FILE_TABLE as TABLE } from "../helpers/control-file-table";

/*
 * Issue 41, class 3: control files by principle. Every control file in one table: written by the agent's file tool in
 * acceptEdits it asks (never "always") and a person's reject leaves it unwritten; planted by a shell command that was
 * allowed to write without a person (auto mode), the command meets a read-only folder or is refused and the file is
 * gone afterwards. Paths at the top and deeper down (cargo, direnv and Codex read them in every folder above where they
 * run), and the folders the repository's git config names (its hooks folder, an included file).
 */
const sandbox = sandboxForSuite();

const PAYLOAD = "#!/bin/sh\ntouch PWNED\n";

/** Beside control files, and named like them, but the project's own: written without a person, by either way. */
const ORDINARY: readonly string[] = [
  "src/ok.ts",
  ".github/ISSUE_TEMPLATE/bug.md",
  "docs/agents-guide.md",
  "crates/app/src/cargo/config.toml",
  ".nvmrc",
  "Makefile",
  // Linters' and test runners' configs are the project's source; a single one of git's names is an ordinary name.
  "eslint.config.js",
  "src/objects/user.ts",
  "docs/refs/guide.md",
];

/** A repository whose git config names a hooks folder (absent) and includes a file inside the workspace. */
function repo(): Api {
  const a = testApi({
    files: { "README.md": "# Demo\n", "crates/app/Cargo.toml": "[package]\nname = 'app'\n", "sub/x.txt": "x\n" },
    // One call per row, in one turn.
    env: { PLANGATE_MAX_STEPS: "300" },
  });
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: a.workspace, stdio: "pipe" });
  git("init", "-q");
  git("config", "core.hooksPath", ".githooks");
  git("config", "include.path", "../team.gitconfig");
  git("add", "-A");
  git("commit", "-qm", "init");
  return a;
}

const exists = (api: Api, rel: string) => fs.existsSync(path.join(api.workspace, rel));

describe("every control file asks before the file tools write it (acceptEdits)", () => {
  let api: Api;
  let asks: { patterns: string[]; metadata: Record<string, unknown> }[] = [];
  let always: number[] = [];
  beforeAll(async () => {
    api = repo();
    const id = await startScripted(
      api,
      [...[...TABLE, ...ORDINARY].map((p) => call("write", { path: p, content: PAYLOAD })), { text: "done" }],
      { mode: "acceptEdits" },
    );
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    asks = await driveAnswering(
      api,
      (s) => settle(api, s, 60_000),
      id,
      () => ({ reply: "reject" }),
    );
    // "always" is never offered for a control file: a fresh ask is refused it too.
    const again = await startScripted(api, [call("write", { path: "AGENTS.md", content: PAYLOAD }), { text: "done" }], {
      mode: "acceptEdits",
    });
    await api.call("POST", `/api/sessions/${again}/messages`, { text: "go" });
    await settle(api, again);
    const [pending] = (await api.call("GET", `/api/permissions?sessionId=${again}&status=pending`)).body.permissions;
    always = [(await api.call("POST", `/api/permissions/${pending?.id}/reply`, { reply: "always" })).status];
  }, 180_000);
  afterAll(async () => {
    await api?.close();
  });

  it.each(TABLE)("%s: asked as a control file, and not written", (p) => {
    const ask = asks.find((a) => a.patterns.includes(p));
    expect(ask, `no ask for ${p}`).toBeDefined();
    expect(ask?.metadata.control).toBe(true);
    expect(exists(api, p)).toBe(false);
  });

  it("ordinary files beside them are written without asking", () => {
    for (const p of ORDINARY)
      expect([p, asks.some((a) => a.patterns.includes(p)), exists(api, p)]).toEqual([p, false, true]);
  });

  it("'always' cannot answer a control file", () => {
    expect(always).toEqual([400]);
  });
});

describe("edit and apply_patch are judged the same way (acceptEdits)", () => {
  let api: Api;
  afterAll(async () => {
    await api?.close();
  });

  it("a patch that adds AGENTS.md and a crate's .cargo/config.toml, and edits of rust-toolchain.toml and a workflow, ask; rejected, nothing changes", async () => {
    api = testApi({
      files: {
        "README.md": "# Demo\n",
        "rust-toolchain.toml": '[toolchain]\nchannel = "stable"\n',
        ".github/workflows/ci.yml": "on: push\n",
      },
    });
    const add = (p: string) => `--- /dev/null\n+++ b/${p}\n@@ -0,0 +1 @@\n+evil\n`;
    const id = await startScripted(
      api,
      [
        call("apply_patch", { patch: add("AGENTS.md") + add("crates/app/.cargo/config.toml") }),
        call("edit", { path: "rust-toolchain.toml", oldString: '"stable"', newString: '"stable"\npath = "/tmp/evil"' }),
        call("edit", { path: ".github/workflows/ci.yml", oldString: "on: push", newString: "on: pull_request_target" }),
        { text: "done" },
      ],
      { mode: "acceptEdits" },
    );
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    const asks = await driveAnswering(
      api,
      (s) => settle(api, s),
      id,
      () => ({ reply: "reject" }),
    );
    expect(asks.map((a) => [a.tool, a.metadata.control])).toEqual([
      ["apply_patch", true],
      ["edit", true],
      ["edit", true],
    ]);
    expect(exists(api, "AGENTS.md")).toBe(false);
    expect(exists(api, "crates/app/.cargo")).toBe(false);
    expect(fs.readFileSync(path.join(api.workspace, "rust-toolchain.toml"), "utf8")).not.toContain("evil");
    expect(fs.readFileSync(path.join(api.workspace, ".github/workflows/ci.yml"), "utf8")).toBe("on: push\n");
  });
});

describe.skipIf(!sandbox.available)("every control file planted by an allowed shell command is refused (auto)", () => {
  let api: Api;
  let outcome: { ok: boolean; text: string }[] = [];
  beforeAll(async () => {
    api = repo();
    const plant = (p: string) => `mkdir -p "$(dirname '${p}')" && printf '${PAYLOAD.replace(/\n/g, "\\n")}' > '${p}'`;
    const ordinary = ORDINARY.map(plant).join(" && ");
    const script = [...TABLE.map((p) => call("bash", { command: plant(p) })), call("bash", { command: ordinary })];
    const id = await startScripted(api, [...script, { text: "done" }], {
      mode: "auto",
    });
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    const { status, events } = await settle(api, id, 170_000);
    expect(status).toBe("idle");
    outcome = results(events).map((r) => ({ ok: r.ok, text: r.ok ? String(r.output) : String(r.error) }));
  }, 180_000);
  afterAll(async () => {
    await api?.close();
  });

  it.each(TABLE.map((p, i) => [p, i] as const))("%s: read-only or refused, and gone afterwards", (p, i) => {
    const o = outcome[i];
    expect(o, `no result for ${p}`).toBeDefined();
    const text = o?.text ?? "";
    const refused =
      o?.ok === false && /Refused: the command created control files that only a person may write/.test(text);
    expect(refused || /Read-only file system/.test(text), `${p}: ${text}`).toBe(true);
    expect(exists(api, p)).toBe(false);
  });

  it("ordinary files beside them are still written, and the call is not refused", () => {
    expect(outcome[TABLE.length]?.text).toMatch(/exit code 0$/);
    for (const p of ORDINARY) expect([p, exists(api, p)]).toEqual([p, true]);
  });
});
