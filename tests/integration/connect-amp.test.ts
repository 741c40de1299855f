import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

// `plangate connect amp` writes a script Amp runs before every call and a rule in the project's settings. The
// attacks: a --url that smuggles shell text, files in the way that are not Plangate's, a delegate run by something
// other than Amp or in a project not connected. Checked absent: anything written, and an "allow" nobody gave.
const bin = path.resolve(import.meta.dirname, "../../bin/plangate.mjs");
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function place() {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-connect-amp-")));
  dirs.push(root);
  const project = path.join(root, "project");
  fs.mkdirSync(project);
  // Plangate's and Amp's config under HOME, as on a person's machine.
  const home = path.join(root, "home");
  return { root, project, home, config: path.join(home, ".config"), marker: path.join(root, "PWNED") };
}
type Place = ReturnType<typeof place>;

const plangate = (args: string[], p: Place) =>
  spawnSync(process.execPath, [bin, ...args], {
    cwd: p.project,
    encoding: "utf8",
    env: { ...process.env, HOME: p.home, XDG_CONFIG_HOME: p.config, PLANGATE_TOKEN: "" },
    timeout: 30_000,
  });

const settingsOf = (p: Place) => path.join(p.project, ".amp", "settings.json");
const rules = (p: Place) => JSON.parse(fs.readFileSync(settingsOf(p), "utf8"))["amp.permissions"] as { to: string }[];
const scriptOf = (p: Place) => path.join(p.home, rules(p)[0]?.to.replace(/^~\//, "") ?? "");

/** The delegate run as Amp runs it: no arguments, the call's arguments on stdin, its tool in the environment. */
const delegate = (p: Place, cwd: string, env: Record<string, string>, input = "{}") =>
  spawnSync(scriptOf(p), [], {
    cwd,
    input,
    encoding: "utf8",
    env: { ...process.env, HOME: p.home, XDG_CONFIG_HOME: p.config, ...env },
    timeout: 30_000,
  });

describe("connect amp writes only Plangate's own files, and its delegate allows nothing it was not told to", () => {
  it.each(["http://127.0.0.1:3000;touch MARKER", "http://127.0.0.1:3000 $(touch MARKER)", "file:///etc/passwd"])(
    "--url %s is refused and nothing is written",
    (raw) => {
      const p = place();
      const r = plangate(["connect", "amp", "--url", raw.replace("MARKER", p.marker), "--token", "pgt_x"], p);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/--url/);
      expect(fs.existsSync(settingsOf(p))).toBe(false);
      expect(fs.existsSync(path.join(p.config, "amp"))).toBe(false);
      expect(fs.existsSync(p.marker)).toBe(false);
    },
  );

  it("settings that are not JSON are left alone, and nothing else is written", () => {
    const p = place();
    fs.mkdirSync(path.dirname(settingsOf(p)));
    fs.writeFileSync(settingsOf(p), '{"amp.permissions": [');
    const r = plangate(["connect", "amp", "--token", "pgt_x"], p);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("nothing was changed");
    expect(fs.readFileSync(settingsOf(p), "utf8")).toBe('{"amp.permissions": [');
    expect(fs.existsSync(path.join(p.config, "amp", "plugins", "plangate.js"))).toBe(false);
  });

  it.each([".amp", ".amp/settings.json"])("a link planted at %s is not written through", (at) => {
    const p = place();
    const outside = path.join(p.root, "outside");
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, "settings.json"), "{}");
    if (at === ".amp") fs.symlinkSync(outside, path.join(p.project, ".amp"));
    else {
      fs.mkdirSync(path.join(p.project, ".amp"));
      fs.symlinkSync(path.join(outside, "settings.json"), settingsOf(p));
    }
    const r = plangate(["connect", "amp", "--token", "pgt_x"], p);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/link/);
    expect(fs.readFileSync(path.join(outside, "settings.json"), "utf8")).toBe("{}");
    expect(fs.existsSync(path.join(p.config, "amp", "plugins", "plangate.js"))).toBe(false);
  });

  it("settings that give amp.permissions twice (Amp reads the last) are refused, and nothing is written", () => {
    const p = place();
    fs.mkdirSync(path.dirname(settingsOf(p)));
    const twice = '{"amp.permissions": [],\n "amp.permissions": [{"tool": "*", "action": "allow"}]}';
    fs.writeFileSync(settingsOf(p), twice);
    const r = plangate(["connect", "amp", "--token", "pgt_x"], p);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("Amp would not read Plangate's rule");
    expect(fs.readFileSync(settingsOf(p), "utf8")).toBe(twice);
    expect(fs.existsSync(path.join(p.config, "amp", "plugins", "plangate.js"))).toBe(false);
  });

  it("the delegate keeps reading calls out of Plangate's own folder (the saved token)", () => {
    const p = place();
    expect(plangate(["connect", "amp", "--token", "pgt_x"], p).status).toBe(0);
    fs.symlinkSync(path.join(p.config, "plangate"), path.join(p.project, "innocent"));
    const reads = (tool: string, input: object) =>
      delegate(p, p.project, { AGENT_TOOL_NAME: tool, AMP_THREAD_ID: "T-1" }, JSON.stringify(input)).status;
    expect(reads("Read", { path: path.join(p.config, "plangate", "credentials.json") })).toBe(2);
    expect(reads("Read", { path: "~/.config/plangate/credentials.json" })).toBe(2);
    expect(reads("Read", { path: "innocent/credentials.json" })).toBe(2);
    expect(reads("Grep", { pattern: "pgt_", path: p.home })).toBe(2);
    expect(reads("glob", { filePattern: `${p.config}/*/credentials.json` })).toBe(2);
    // Links are followed before `..`, as the kernel walks a path.
    fs.symlinkSync(path.join(p.config, "amp"), path.join(p.project, "lnk"));
    expect(reads("Read", { path: "lnk/../plangate/credentials.json" })).toBe(2);
    expect(reads("Read", { path: "/proc/self/cwd/../home/.config/plangate/credentials.json" })).toBe(2);
    // A process's environment may hold a token (PLANGATE_TOKEN).
    expect(reads("Read", { path: "/proc/self/environ" })).toBe(2);
    expect(reads("Read", { path: "README.md" })).toBe(0);
    expect(reads("Grep", { pattern: "x" })).toBe(0);
    expect(reads("glob", { filePattern: "**/*.ts" })).toBe(0);
  });

  it("names its script from ~ in the project's settings, and the script gates only what Amp hands it", () => {
    const p = place();
    const r = plangate(["connect", "amp", "--token", "pgt_x"], p);
    expect(r.status, r.stderr).toBe(0);
    expect(rules(p)[0]).toEqual({
      tool: "*",
      action: "delegate",
      to: expect.stringMatching(/^~\/\.config\/plangate\/amp\/delegate-[0-9a-f]{16}\.sh$/),
    });
    expect(fs.statSync(scriptOf(p)).mode & 0o777).toBe(0o700);
    const edit = JSON.stringify({ path: "a.txt", old_str: "a", new_str: "b" });
    // Run by something that is not Amp (no tool named): refused.
    expect(delegate(p, p.project, {}, edit).status).toBe(2);
    // Arguments that are not one JSON object: refused, even for a read.
    expect(delegate(p, p.project, { AGENT_TOOL_NAME: "Read" }, "[1]").status).toBe(2);
    expect(delegate(p, p.project, { AGENT_TOOL_NAME: "Read" }, '{"path":"a.txt"}').status).toBe(0);
    // A thread with no approved plan: refused, with what to do.
    const before = delegate(p, p.project, { AGENT_TOOL_NAME: "edit_file", AMP_THREAD_ID: "T-1" }, edit);
    expect(before.status).toBe(2);
    expect(before.stderr).toContain("call submit_plan");
    // Elsewhere (a project not connected that still names the script): Amp's own dialog, never an allow.
    const elsewhere = path.join(p.root, "elsewhere");
    fs.mkdirSync(elsewhere);
    expect(delegate(p, elsewhere, { AGENT_TOOL_NAME: "edit_file", AMP_THREAD_ID: "T-1" }, edit).status).toBe(1);
  });

  it("a script in the way that is not Plangate's is not overwritten", () => {
    const p = place();
    expect(plangate(["connect", "amp", "--token", "pgt_x"], p).status).toBe(0);
    const script = scriptOf(p);
    fs.writeFileSync(script, "#!/bin/sh\nexit 0\n");
    const r = plangate(["connect", "amp", "--token", "pgt_x"], p);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("was not written by plangate");
    expect(fs.readFileSync(script, "utf8")).toBe("#!/bin/sh\nexit 0\n");
  });
});
