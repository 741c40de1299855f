import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxForSuite } from "../helpers/sandbox";
import { bashTool } from "../../lib/tools/bash";
import { ToolError, type ToolContext } from "../../lib/tools/types";
import { treeHash } from "../helpers/boundary";

// PLANGATE_SANDBOX=off runs the same attacks against the parsed allowlist instead of bubblewrap.
const sandboxOff = process.env.PLANGATE_SANDBOX === "off";
const sandbox = sandboxForSuite();
const tag = randomBytes(4).toString("hex");
const cleanup: string[] = [];

function makeWorkspace(): string {
  const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-sandbox-")));
  cleanup.push(ws);
  fs.writeFileSync(path.join(ws, "README.md"), "# Sample\nalpha beta\n");
  fs.mkdirSync(path.join(ws, "src", "nested"), { recursive: true });
  fs.writeFileSync(path.join(ws, "src", "a.ts"), "export const a = 1;\n");
  fs.writeFileSync(path.join(ws, "src", "nested", "b.txt"), "bravo\n");
  fs.writeFileSync(path.join(ws, "run.sh"), "#!/bin/sh\necho run\n", { mode: 0o755 });
  fs.symlinkSync("README.md", path.join(ws, "link"));
  fs.mkdirSync(path.join(ws, ".plangate", "plans"), { recursive: true });
  fs.writeFileSync(path.join(ws, ".plangate", "plans", "x.md"), "# Plan\n");
  const git = (...args: string[]) => {
    const r = spawnSync("git", args, { cwd: ws, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  };
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.email=a@b", "-c", "user.name=a", "commit", "-q", "-m", "initial commit");
  return ws;
}

function ctxFor(workspace: string, readOnly: boolean): ToolContext {
  return {
    sessionId: "sandbox-test",
    workspace,
    callId: "call",
    mode: readOnly ? "plan" : "default",
    readOnly,
    planFile: path.join(workspace, ".plangate", "plans", "x.md"),
    sandbox,
    signal: new AbortController().signal,
  };
}

type Attempt = { output: string; exitCode: number | null; refused: string | null };

async function run(command: string, ctx: ToolContext, timeoutMs = 15_000): Promise<Attempt> {
  try {
    const result = await bashTool.execute({ command, timeoutMs }, ctx);
    return { output: result.output, exitCode: (result.metadata?.exitCode as number | null) ?? null, refused: null };
  } catch (err) {
    if (err instanceof ToolError) return { output: "", exitCode: null, refused: err.message };
    throw err;
  }
}

const homeFile = `q-${tag}.txt`;
const ATTACKS: string[] = [
  "echo x > a.txt",
  "echo x >> README.md",
  "printf x | tee b.txt",
  "sed -i s/a/b/ README.md",
  "cp README.md c.txt",
  "mv README.md d.txt",
  "rm README.md",
  "rm -rf src",
  "touch e.txt",
  "mkdir newdir",
  "dd if=/dev/zero of=f.bin count=1",
  `python3 -c "open('g.txt','w').write('x')"`,
  `node -e "require('fs').writeFileSync('h.txt','x')"`,
  `perl -e 'open(F,">i.txt") or die "$!"'`,
  "git commit --allow-empty -m x",
  "git checkout -b other",
  "git tag t1",
  "git config user.name evil",
  "git stash --include-untracked",
  "ln -s README.md link2",
  "chmod 777 README.md",
  "truncate -s 0 README.md",
  "install -m 644 README.md j.txt",
  "cat README.md > /dev/stdout > k.txt",
  "bash -c 'echo x > l.txt'",
  'sh -c "echo x > m.txt"',
  "(cd src && echo x > n.txt)",
  "find . -name '*.md' -exec touch {} +",
  "tar cf o.tar README.md",
  `awk 'BEGIN{print "x" > "p.txt"}'`,
  `echo x > "$HOME/${homeFile}"; echo x > q.txt`,
  "curl -s -m 3 -o r.txt http://127.0.0.1:9/",
  "exec 3>s.txt",
  // Capabilities are dropped: a fresh mount namespace cannot remount / read-write.
  "unshare -m sh -c 'mount -o remount,rw / && echo x > t.txt'",
  "mount -t tmpfs none src && echo x > src/u.txt",
  "echo change > .plangate/plans/x.md",
  "git add -A && git -c user.email=a@b -c user.name=a commit -m y",
  "git reset --hard HEAD && git gc",
  "rm -rf .git",
  "ln README.md hardlink",
  "mkfifo v.fifo",
  `python3 -c "import os; os.remove('README.md')"`,
  "echo x | dd of=README.md conv=notrunc",
  "nohup sh -c 'sleep 1; echo x > w.txt' >/dev/null 2>&1 &",
];
// These must show the write failing, not merely a missing tool.
const MUST_FAIL_LOUDLY = new Set(["echo x > a.txt", "cp README.md c.txt", `python3 -c "open('g.txt','w').write('x')"`]);

beforeAll(() => {
  if (!sandbox.available && !sandboxOff) {
    throw new Error(
      "bubblewrap (bwrap) is missing or cannot create namespaces here: install it (apt-get install bubblewrap) " +
        "or set PLANGATE_SANDBOX=off explicitly to test only the read-only allowlist fallback.",
    );
  }
});

afterAll(() => {
  for (const dir of cleanup) fs.rmSync(dir, { recursive: true, force: true });
});

describe("plan mode: bash cannot change the workspace", () => {
  let ws = "";
  let baseline = "";
  beforeAll(() => {
    ws = makeWorkspace();
    baseline = treeHash(ws);
  });

  it("covers at least 30 different ways to write", () => {
    expect(new Set(ATTACKS).size).toBeGreaterThanOrEqual(30);
  });

  it.each(ATTACKS)("%s", async (command) => {
    const attempt = await run(command, ctxFor(ws, true));
    expect(treeHash(ws)).toBe(baseline);
    if (sandboxOff) {
      expect(attempt.refused).toMatch(/^Refused in read-only mode: /);
    } else if (MUST_FAIL_LOUDLY.has(command)) {
      expect(attempt.exitCode).not.toBe(0);
      expect(attempt.output).toContain("Read-only file system");
    }
  });

  it("left nothing in the host's home folders either", async () => {
    // Wait for the background job's delayed write, were it still alive.
    await new Promise((r) => setTimeout(r, 1_200));
    expect(treeHash(ws)).toBe(baseline);
    expect(fs.existsSync(path.join(os.homedir(), homeFile))).toBe(false);
    expect(fs.existsSync(path.join("/tmp/home", homeFile))).toBe(false);
  });

  it.each([
    ["cat README.md", "alpha beta"],
    ["git log --oneline", "initial commit"],
    ["git status --short && ls src", "nested"],
    ["grep -rn bravo src", "src/nested/b.txt:1:bravo"],
  ])("read-only command %j works and shows %j", async (command, expected) => {
    const attempt = await run(command, ctxFor(ws, true));
    expect(attempt.refused).toBeNull();
    expect(attempt.output).toContain(expected);
    expect(attempt.output.endsWith("exit code 0")).toBe(true);
    expect(treeHash(ws)).toBe(baseline);
  });
});

describe.skipIf(sandboxOff)("outside plan mode: only the workspace is writable", () => {
  it("writes inside the workspace, fails outside it", async () => {
    const ws = makeWorkspace();
    const ctx = ctxFor(ws, false);
    const before = treeHash(ws);
    const inside = await run("echo ok > inside.txt", ctx);
    expect(inside.output).toMatch(/exit code 0$/);
    expect(fs.readFileSync(path.join(ws, "inside.txt"), "utf8")).toBe("ok\n");
    // The hash the plan-mode tests rely on does notice a write.
    expect(treeHash(ws)).not.toBe(before);

    const outsideFile = path.join(os.homedir(), `outside-${tag}.txt`);
    const outside = await run(`echo x > ${outsideFile}`, ctx);
    expect(outside.exitCode).not.toBe(0);
    // The home folder is not even there: the sandbox shows the workspace and the system, not the host.
    expect(outside.output).toMatch(/Read-only file system|No such file or directory/);
    expect(fs.existsSync(outsideFile)).toBe(false);

    const etc = await run("touch /etc/plangate-test", ctx);
    expect(etc.exitCode).not.toBe(0);
    expect(etc.output).toContain("Read-only file system");
    expect(fs.existsSync("/etc/plangate-test")).toBe(false);
  });

  it("kills a command at its timeout, with its whole process tree", async () => {
    const ws = makeWorkspace();
    const started = Date.now();
    // Durations of this run only: the same test may run at the same time in the other database's project.
    const fraction = String(process.pid).padStart(7, "0");
    const attempt = await run(`sleep 30.${fraction} & sleep 31.${fraction}; echo never`, ctxFor(ws, false), 300);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(attempt.output).toContain("timed out after 300 ms");
    expect(attempt.output).not.toContain("never");
    const left = spawnSync("pgrep", ["-f", `^sleep 3[01]\\.${fraction}$`], { encoding: "utf8" });
    expect(left.stdout.trim()).toBe("");
  });

  it("keeps the head and tail of a long output", async () => {
    const ws = makeWorkspace();
    const attempt = await run("seq 1 200000", ctxFor(ws, true));
    expect(attempt.output.startsWith("1\n2\n3\n")).toBe(true);
    expect(attempt.output).toContain("200000\n");
    expect(attempt.output).toMatch(/… \d+ characters omitted …/);
    expect(attempt.output.length).toBeLessThan(31_000);
  });
});
