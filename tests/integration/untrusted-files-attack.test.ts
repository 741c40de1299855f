import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { emptyState } from "../../lib/session/log/fold";
import { readEvents } from "../../lib/db/session-log/read-events";
import { planReference } from "../../lib/plan/plan-reference";
import { testApi, type Api } from "../helpers/api";
import { policyKit } from "../helpers/policy-kit";

// Issue 41, class 5, on both engines: the files Plangate itself reads from a workspace (its config, its reviewers
// file, a plan file, the settings an import reads) are the repository's, so each attack plants one that leads to a
// host secret, to /dev/zero, to a FIFO, or is huge or broken around a secret. The check: a clear answer naming the
// file and what is wrong with it, promptly, with none of the secret's bytes anywhere and no memory taken.
const SECRET = "sk-live-PLANGATE-HOST-SECRET-0c7e19";
const repoRoot = path.resolve(import.meta.dirname, "../..");
let api: Api;
let outside = "";
beforeEach(() => {
  api = testApi();
  outside = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-host-"));
  // A host secret: not JSON, so a parse error that quotes the file's first bytes shows it.
  fs.writeFileSync(path.join(outside, "secret"), `${SECRET}\nmore secret lines\n`);
  fs.mkdirSync(path.join(outside, "folder"));
  fs.writeFileSync(path.join(outside, "folder", "config.json"), `${SECRET}\n`);
  fs.writeFileSync(path.join(outside, "folder", "reviewers"), `* ${SECRET}@example.com\n`);
  fs.writeFileSync(path.join(outside, "valid.json"), JSON.stringify({ permission: { bash: "allow" }, note: SECRET }));
});
afterEach(async () => {
  await api?.close();
  fs.rmSync(outside, { recursive: true, force: true });
});

const { person } = policyKit(() => api);

/** One hostile `.plangate/<name>`: how it is planted, and the problem an answer must name. */
type Plant = [label: string, plant: (file: string) => void, problem: RegExp];
const plants = (name: string): Plant[] => [
  ["a link to a host secret", (f) => fs.symlinkSync(path.join(outside, "secret"), f), /symbolic link leading outside/],
  ["a link to /dev/zero", (f) => fs.symlinkSync("/dev/zero", f), /symbolic link leading outside/],
  ["a FIFO", (f) => execFileSync("mkfifo", [f]), /not a regular file \(a FIFO\)/],
  ["a 10 MB file", (f) => fs.writeFileSync(f, Buffer.alloc(10 * 1024 * 1024, 0x20)), /larger than (256|64) KiB/],
  [
    "a hard link to a file outside",
    (f) => fs.linkSync(path.join(outside, "valid.json"), f),
    /more than one name \(a hard link\)/,
  ],
  [
    "a .plangate folder that is a link to a folder outside",
    (f) => {
      fs.rmSync(path.dirname(f), { recursive: true, force: true });
      fs.symlinkSync(path.join(outside, "folder"), path.dirname(f));
      expect(fs.existsSync(path.join(path.dirname(f), name))).toBe(true);
    },
    /symbolic link leading outside/,
  ],
];

function plant(make: (file: string) => void, name: string): string {
  const file = path.join(api.workspace, ".plangate", name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  make(file);
  return file;
}

/** Runs `fn`, which must answer within ten seconds (a loaded machine included) and without taking the process's memory up by 200 MB. */
async function promptly<T>(fn: () => Promise<T>): Promise<T> {
  const rss = process.memoryUsage().rss;
  const started = Date.now();
  const out = await fn();
  expect(Date.now() - started).toBeLessThan(10_000);
  expect(process.memoryUsage().rss - rss).toBeLessThan(200 * 1024 * 1024);
  return out;
}

const noSecret = (value: unknown) => expect(JSON.stringify(value)).not.toContain("sk-live");
const q = () => encodeURIComponent(api.workspace);

describe(".plangate/config.json is read as untrusted", () => {
  it.each(plants("config.json"))(
    "%s: the trust view (viewer and owner) names the file and the problem; trusting it is a 400; a session starts with a notice",
    async (_label, make, problem) => {
      plant(make, "config.json");
      const viewer = await person("viewer");
      for (const as of [viewer, undefined]) {
        const shown = await promptly(() => api.call("GET", `/api/workspaces/trust?workspace=${q()}`, undefined, as));
        expect(shown.status, JSON.stringify(shown.body)).toBe(200);
        expect(shown.body.error).toMatch(/\.plangate\/config\.json/);
        expect(shown.body.error).toMatch(problem);
        expect(shown.body).toMatchObject({ trusted: false, widening: [] });
        noSecret(shown.body);
      }
      const trust = await promptly(() =>
        api.call("POST", "/api/workspaces/trust", { workspace: api.workspace, hash: "0".repeat(64) }),
      );
      expect([400, 404]).toContain(trust.status);
      noSecret(trust.body);
      expect(await api.t.db.workspaceTrust.count()).toBe(0);

      const created = await promptly(() =>
        api.call("POST", "/api/sessions", { title: "t", workspace: api.workspace, model: "scripted", script: [] }),
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      noSecret(created.body);
      const events = await readEvents(api.t.db, created.body.session.id);
      const notices = events.flatMap((e) => (e.type === "notice" ? [e.payload.text] : []));
      expect(notices.join("\n")).toMatch(/\.plangate\/config\.json/);
      expect(notices.join("\n")).toMatch(problem);
      noSecret(events);
    },
  );

  it("a config that is not valid JSON around a secret: named by line and column, never quoted", async () => {
    plant((f) => fs.writeFileSync(f, `{\n  "permission": {},\n  "token": ${SECRET}\n}\n`), "config.json");
    const shown = await api.call("GET", `/api/workspaces/trust?workspace=${q()}`, undefined, await person("viewer"));
    expect(shown.status).toBe(200);
    expect(shown.body.error).toMatch(/\.plangate\/config\.json is not valid JSON at line 3 column 12/);
    noSecret(shown.body);
    const trust = await api.call("POST", "/api/workspaces/trust", { workspace: api.workspace, hash: "0".repeat(64) });
    expect(trust.status).toBe(400);
    noSecret(trust.body);
  });

  it("a link to another regular file inside the workspace is read (a repository may keep its config elsewhere)", async () => {
    fs.mkdirSync(path.join(api.workspace, "config"), { recursive: true });
    fs.writeFileSync(
      path.join(api.workspace, "config", "plangate.json"),
      JSON.stringify({ permission: { bash: "allow" } }),
    );
    plant((f) => fs.symlinkSync("../config/plangate.json", f), "config.json");
    const shown = await api.call("GET", `/api/workspaces/trust?workspace=${q()}`);
    expect(shown.body).toMatchObject({ error: null, widening: ["bash → allow"], waiting: true });
  });
});

describe(".plangate/reviewers is read as untrusted", () => {
  it.each(plants("reviewers"))(
    "%s: the policy view (viewer and owner) shows no file and names the problem; trusting it is a 400",
    async (_label, make, problem) => {
      plant(make, "reviewers");
      for (const as of [await person("viewer"), undefined]) {
        const shown = await promptly(() => api.call("GET", `/api/policies?workspace=${q()}`, undefined, as));
        expect(shown.status, JSON.stringify(shown.body)).toBe(200);
        expect(shown.body.owners).toMatchObject({ fileText: null, fileHash: null, trusted: [] });
        expect(shown.body.owners.fileError).toMatch(/\.plangate\/reviewers/);
        expect(shown.body.owners.fileError).toMatch(problem);
        noSecret(shown.body);
      }
      const trust = await promptly(() =>
        api.call("POST", "/api/policies/owners", { workspace: api.workspace, hash: "0".repeat(64) }),
      );
      expect(trust.status).toBe(400);
      expect(trust.body.error.message).toMatch(problem);
      noSecret(trust.body);
      expect(await api.t.db.reviewPolicy.count()).toBe(0);
    },
  );
});

describe("the plan file, re-read for a compaction summary, is read as untrusted", () => {
  it.each([
    ["a link to a host secret", (f: string) => fs.symlinkSync(path.join(outside, "secret"), f), /link/],
    ["a link to /dev/zero", (f: string) => fs.symlinkSync("/dev/zero", f), /link/],
    ["a FIFO", (f: string) => execFileSync("mkfifo", [f]), /not a regular file/],
    ["a 10 MB file", (f: string) => fs.writeFileSync(f, Buffer.alloc(10 * 1024 * 1024, 0x41)), /larger than 256 KiB/],
  ])("%s: the model is told the file could not be read, and why; nothing of it is quoted", async (_l, make, why) => {
    const dir = path.join(api.workspace, ".plangate", "plans");
    fs.mkdirSync(dir, { recursive: true });
    const planPath = path.join(dir, "amber-kite-x.md");
    make(planPath);
    const state = { ...emptyState, workspace: api.workspace, planPath, mode: "plan" as const };
    const text = await promptly(async () => planReference(state) ?? "");
    expect(text).toMatch(why);
    expect(text).not.toContain("sk-live");
    expect(text).not.toContain("AAAAAAAA");
    expect(text.length).toBeLessThan(2_000);
  });
});

describe("plangate import-config reads the repository's settings as untrusted", () => {
  const importConfig = (ws: string) =>
    spawnSync(process.execPath, ["bin/plangate.mjs", "import-config", "--workspace", ws], {
      cwd: repoRoot,
      env: { ...process.env, HOME: outside },
      encoding: "utf8",
      timeout: 30_000,
    });
  it.each([
    [
      "a link to a host file",
      ".claude/settings.json",
      (f: string) => fs.symlinkSync(path.join(outside, "valid.json"), f),
      /symbolic link leading outside/,
    ],
    [
      "a link to /dev/zero",
      ".claude/settings.json",
      (f: string) => fs.symlinkSync("/dev/zero", f),
      /symbolic link leading outside/,
    ],
    ["a FIFO", "opencode.json", (f: string) => execFileSync("mkfifo", [f]), /not a regular file \(a FIFO\)/],
    [
      "a 10 MB file",
      "opencode.jsonc",
      (f: string) => fs.writeFileSync(f, Buffer.alloc(10 * 1024 * 1024, 0x20)),
      /larger than 256 KiB/,
    ],
    [
      "broken JSON around a secret",
      ".plangate/config.json",
      (f: string) => fs.writeFileSync(f, `{"token": ${SECRET}}`),
      /not valid JSON at line 1/,
    ],
    ["a FIFO", ".opencode/agent/docs.md", (f: string) => execFileSync("mkfifo", [f]), /not a regular file \(a FIFO\)/],
  ])("%s as %s: refused, naming the file and the problem, promptly and without the secret", (_l, rel, make, why) => {
    const file = path.join(api.workspace, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    make(file);
    const r = importConfig(api.workspace);
    expect(r.error).toBeUndefined();
    expect(r.status, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toContain(rel);
    expect(r.stderr).toMatch(why);
    expect(r.stdout + r.stderr).not.toContain("sk-live");
    expect(fs.existsSync(path.join(api.workspace, ".plangate", "config.json.tmp"))).toBe(false);
  });
});
