import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { call, results, settle, startScripted, testApi, type Api } from "../helpers/api";
import { driveAnswering } from "../helpers/boundary";
import { sandboxForSuite } from "../helpers/sandbox";

/*
 * Issue 41, class 3, with the host programs' real effect: the person's own `git commit` in a repository whose
 * core.hooksPath names a folder inside the workspace, and the person's own `cargo run`, after the agent tried to
 * plant a hook or a `.cargo/config.toml` runner — through the file tools in acceptEdits (asked, rejected) and
 * through a shell command allowed to write without a person (auto).
 */
const sandbox = sandboxForSuite();
let api: Api;
afterEach(async () => {
  await api?.close();
});

const HOOK_RAN = "HOOK-RAN";
const evilHook = (ws: string) => `#!/bin/sh\ntouch ${ws}/${HOOK_RAN}\n`;

function hooksRepo(existing: boolean): Api {
  const a = testApi({ files: { "README.md": "# Demo\n" } });
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: a.workspace, stdio: "pipe" });
  git("init", "-q");
  git("config", "core.hooksPath", ".githooks");
  if (existing) {
    fs.mkdirSync(path.join(a.workspace, ".githooks"));
    fs.writeFileSync(path.join(a.workspace, ".githooks/pre-commit"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  }
  git("add", "-A");
  git("commit", "-qm", "init");
  return a;
}

/** The person commits on the host, with the repository's own settings: its hooks run if any are there. */
function personCommits(ws: string): void {
  execFileSync("git", ["-c", "user.name=p", "-c", "user.email=p@p", "commit", "-q", "--allow-empty", "-m", "mine"], {
    cwd: ws,
    stdio: "pipe",
  });
}

async function run(script: ReturnType<typeof call>[], mode: string): Promise<{ ok: boolean; text: string }[]> {
  const id = await startScripted(api, [...script, { text: "done" }], { mode });
  await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
  await driveAnswering(
    api,
    (s) => settle(api, s, 60_000),
    id,
    () => ({ reply: "reject" }),
  );
  const { events } = await settle(api, id);
  return results(events).map((r) => ({ ok: r.ok, text: r.ok ? String(r.output) : String(r.error) }));
}

describe("a hook in the folder core.hooksPath names", () => {
  it("acceptEdits: the file tool's write to the hooks folder asks; rejected, the person's git commit runs no planted hook", async () => {
    api = hooksRepo(true);
    const [written] = await run(
      [call("write", { path: ".githooks/pre-commit", content: evilHook(api.workspace) })],
      "acceptEdits",
    );
    personCommits(api.workspace);
    expect(fs.existsSync(path.join(api.workspace, HOOK_RAN))).toBe(false);
    expect(written?.ok).toBe(false);
  });

  it.skipIf(!sandbox.available).each([false, true])(
    "auto: a command cannot plant a hook there (folder exists: %s), and the person's git commit runs none",
    async (existing) => {
      api = hooksRepo(existing);
      const hook = evilHook(api.workspace).replace(/\n/g, "\\n");
      const [planted] = await run(
        [
          call("bash", {
            command: `mkdir -p .githooks && printf '${hook}' > .githooks/pre-commit && chmod +x .githooks/pre-commit`,
          }),
        ],
        "auto",
      );
      personCommits(api.workspace);
      expect(fs.existsSync(path.join(api.workspace, HOOK_RAN))).toBe(false);
      // Missing, it is checked once the command ends and taken away; existing, it is read-only while it runs.
      if (existing) expect(planted?.text).toMatch(/Read-only file system/);
      else expect(planted?.text).toMatch(/Refused: the command created control files .*\(\.githooks\)/);
    },
    60_000,
  );
});

describe.skipIf(!sandbox.available)("a hooks folder deeper down, its parent renamed and rebuilt", () => {
  it("auto: the rebuilt hooks folder is taken away after the command; the person's git commit runs no planted hook", async () => {
    api = testApi({ files: { "README.md": "# Demo\n", "tools/hooks/pre-commit": "#!/bin/sh\nexit 0\n" } });
    fs.chmodSync(path.join(api.workspace, "tools/hooks/pre-commit"), 0o755);
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
        cwd: api.workspace,
        stdio: "pipe",
      });
    git("init", "-q");
    git("config", "core.hooksPath", "tools/hooks");
    git("add", "-A");
    git("commit", "-qm", "init");
    const hook = evilHook(api.workspace).replace(/\n/g, "\\n");
    const [moved] = await run(
      [
        call("bash", {
          command: `mv tools tools2 && mkdir -p tools/hooks && printf '${hook}' > tools/hooks/pre-commit && chmod +x tools/hooks/pre-commit`,
        }),
      ],
      "auto",
    );
    personCommits(api.workspace);
    expect(fs.existsSync(path.join(api.workspace, HOOK_RAN))).toBe(false);
    expect(moved?.text).toMatch(/Refused: the command created control files .*tools\/hooks/);
  }, 60_000);
});

const cargo = spawnSync("cargo", ["--version"], { encoding: "utf8" });
const targetDir = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-cargo-target-"));
afterAll(() => fs.rmSync(targetDir, { recursive: true, force: true }));

const RUNNER_RAN = "RUNNER-RAN";
const runnerConfig = (ws: string) =>
  `[target.'cfg(all())']\nrunner = ["sh", "-c", "touch ${ws}/${RUNNER_RAN}; exec \\"$0\\" \\"$@\\""]\n`;

function crates(): Api {
  const manifest = (name: string) => `[package]\nname = "${name}"\nversion = "0.1.0"\nedition = "2021"\n`;
  const main = 'fn main() { println!("hello from the crate"); }\n';
  return testApi({
    files: {
      "Cargo.toml": manifest("top"),
      "src/main.rs": main,
      "crates/app/Cargo.toml": `${manifest("app")}\n[workspace]\n`,
      "crates/app/src/main.rs": main,
    },
  });
}

/** The person runs the crate on the host: a `.cargo/config.toml` in that folder or any above it applies. */
function personRuns(dir: string): string {
  return execFileSync("cargo", ["run", "--offline", "-q"], {
    cwd: dir,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, CARGO_TARGET_DIR: path.join(targetDir, path.basename(dir)) },
  });
}

describe.skipIf(cargo.status !== 0)("a .cargo/config.toml runner", () => {
  it("acceptEdits: the file tool's writes ask; rejected, the person's cargo run runs no planted runner", async () => {
    api = crates();
    const outcome = await run(
      [
        call("write", { path: ".cargo/config.toml", content: runnerConfig(api.workspace) }),
        call("write", { path: "crates/app/.cargo/config.toml", content: runnerConfig(api.workspace) }),
      ],
      "acceptEdits",
    );
    expect(personRuns(api.workspace)).toBe("hello from the crate\n");
    expect(personRuns(path.join(api.workspace, "crates/app"))).toBe("hello from the crate\n");
    expect(fs.existsSync(path.join(api.workspace, RUNNER_RAN))).toBe(false);
    expect(outcome.map((o) => o.ok)).toEqual([false, false]);
  }, 120_000);

  it.skipIf(!sandbox.available)(
    "auto: a command cannot plant one at the top or in a crate's folder; the person's cargo run runs no planted runner",
    async () => {
      api = crates();
      const plant = (dir: string) =>
        `mkdir -p ${dir}/.cargo && echo ${Buffer.from(runnerConfig(api.workspace)).toString("base64")} | base64 -d > ${dir}/.cargo/config.toml`;
      const [top, nested] = await run(
        [call("bash", { command: plant(".") }), call("bash", { command: plant("crates/app") })],
        "auto",
      );
      expect(personRuns(api.workspace)).toBe("hello from the crate\n");
      expect(fs.existsSync(path.join(api.workspace, RUNNER_RAN))).toBe(false);
      expect(personRuns(path.join(api.workspace, "crates/app"))).toBe("hello from the crate\n");
      expect(fs.existsSync(path.join(api.workspace, RUNNER_RAN))).toBe(false);
      expect(top?.text).toMatch(/Read-only file system/);
      expect(nested?.text).toMatch(/Refused: the command created control files .*\(crates\/app\/\.cargo\)/);
    },
    120_000,
  );
});
