import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { operatorHeaders, realServerFixture } from "../helpers/server";

// Issue 41, class 5, through `npm start`: repositories under a root whose .plangate/config.json or .plangate/reviewers
// leads to a host secret or /dev/zero, is a FIFO, is huge or is broken around a secret. Before, one of them kept the
// server from coming up (the start scan read /dev/zero until memory ran out, or waited on the FIFO for ever). Now it
// comes up, its log names each refused file and why, and the pages answer promptly, without the secret.
const SECRET = "sk-live-PLANGATE-START-SECRET-5d21";
const host = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-host-"));
fs.writeFileSync(path.join(host, "secret"), `${SECRET}\n`);
afterAll(() => fs.rmSync(host, { recursive: true, force: true }));

const REPOS: Record<string, { config?: (f: string) => void; reviewers?: (f: string) => void; problem: string }> = {
  zero: {
    config: (f) => fs.symlinkSync("/dev/zero", f),
    reviewers: (f) => fs.symlinkSync("/dev/zero", f),
    problem: ".plangate/config.json is a symbolic link leading outside the workspace",
  },
  fifo: {
    config: (f) => execFileSync("mkfifo", [f]),
    reviewers: (f) => execFileSync("mkfifo", [f]),
    problem: ".plangate/config.json is not a regular file (a FIFO)",
  },
  secret: {
    config: (f) => fs.symlinkSync(path.join(host, "secret"), f),
    problem: ".plangate/config.json is a symbolic link leading outside the workspace",
  },
  big: {
    config: (f) => fs.writeFileSync(f, Buffer.alloc(10 * 1024 * 1024, 0x20)),
    problem: ".plangate/config.json is larger than 256 KiB",
  },
  broken: {
    config: (f) => fs.writeFileSync(f, `{"token": ${SECRET}}`),
    problem: ".plangate/config.json is not valid JSON at line 1 column 11",
  },
};

const fixture = realServerFixture("untrusted-start", { PLANGATE_SANDBOX: "off" }, (ws) => {
  const root = path.dirname(ws);
  for (const [name, repo] of Object.entries(REPOS)) {
    fs.mkdirSync(path.join(root, name, ".plangate"), { recursive: true });
    fs.writeFileSync(path.join(root, name, "README.md"), "# a cloned repository\n");
    repo.config?.(path.join(root, name, ".plangate", "config.json"));
    repo.reviewers?.(path.join(root, name, ".plangate", "reviewers"));
  }
});
const workspace = (name: string) => path.join(fs.realpathSync(path.dirname(fixture.workspace)), name);

async function get(url: string): Promise<{ status: number; body: Record<string, unknown>; ms: number }> {
  const started = Date.now();
  const res = await fetch(`${fixture.server().url}${url}`, {
    headers: operatorHeaders(),
    signal: AbortSignal.timeout(15_000),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, ms: Date.now() - started };
}

/** Resident memory of every process of the server's group (the start script, Next and its workers), in MB. */
function groupRssMb(pgid: number): number {
  let kb = 0;
  for (const pid of fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]) !== pgid) continue;
      kb += Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return kb / 1024;
}

describe("npm start with hostile repositories under a root", () => {
  it("comes up, and its log names every refused config and why, without the secret", () => {
    const log = fixture.server().log();
    for (const [name, repo] of Object.entries(REPOS))
      expect(log).toContain(`plangate: ${workspace(name)}: ${repo.problem}`);
    expect(log).not.toContain("sk-live");
  });

  it.each(Object.keys(REPOS))(
    "%s: the trust view answers promptly, naming the problem, without the secret",
    async (name) => {
      const shown = await get(`/api/workspaces/trust?workspace=${encodeURIComponent(workspace(name))}`);
      expect(shown.status).toBe(200);
      expect(shown.ms).toBeLessThan(5_000);
      expect(shown.body.error).toContain(REPOS[name]?.problem);
      expect(JSON.stringify(shown.body)).not.toContain("sk-live");
    },
  );

  it.each(["zero", "fifo"])(
    "%s: the review policy view answers promptly and says why the reviewers file is not read",
    async (name) => {
      const shown = await get(`/api/policies?workspace=${encodeURIComponent(workspace(name))}`);
      expect(shown.status).toBe(200);
      expect(shown.ms).toBeLessThan(5_000);
      expect(shown.body.owners).toMatchObject({
        fileText: null,
        fileError: expect.stringMatching(/^\.plangate\/reviewers /),
      });
    },
  );

  it("the server's memory stayed that of a server (no file was read whole)", () => {
    const pgid = fixture.server().proc.pid as number;
    expect(groupRssMb(pgid)).toBeGreaterThan(10);
    expect(groupRssMb(pgid)).toBeLessThan(2_048);
  });
});
