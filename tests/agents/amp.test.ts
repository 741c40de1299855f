// Amp's plans on Plangate's desk, with the real CLI (pinned, installed at test time into the cache). Amp's model
// runs only behind ampcode.com's sign-in, so no thread can run here (docs/agents.md); what Amp runs without it is
// driven for real: `amp permissions test` hands each call to the delegate `plangate connect amp` put first in the
// project's settings, exactly as a thread would, and Amp's own Bun loads Plangate's plugin and calls submit_plan.
// Faults of the delegate and the plugin: amp-faults.test.ts.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { approveAs, connectByEmail } from "../helpers/people";
import { approveInBrowser } from "./approve-in-browser";
import { replyNextAsk, sendBackForVersion2 } from "./told";
import { AMP, cliForSuite } from "./install-clis";
import { ampDecides, ampPluginGates, ampSubmitsPlan } from "./run-amp";
import { ampSuite, EDIT, PLAN, PLAN_V2 } from "./amp-suite";

const amp = await cliForSuite(AMP);
const { fixture, api, pendingReview, connected, approvedThread, cookie } = ampSuite("amp", amp);

describe.skipIf(!amp)(`Amp ${AMP.version} reviewed in Plangate (real CLI: its permission engine and Bun)`, () => {
  it("before a plan, Amp's delegate refuses edits, patches, commands and other tools, and lets reading go on", async () => {
    const { ws, a } = await connected("gate");
    const settings = JSON.parse(fs.readFileSync(path.join(ws, ".amp", "settings.json"), "utf8"));
    expect(settings["amp.permissions"][0]).toMatchObject({ tool: "*", action: "delegate" });
    for (const [tool, args] of [
      ["edit_file", EDIT],
      ["create_file", { path: "hello.txt", content: "hi" }],
      ["apply_patch", { patchText: "*** Begin Patch\n*** Add File: hello.txt\n+hi\n*** End Patch" }],
      ["shell_command", { command: "touch pwned" }],
      ["Bash", { cmd: "touch pwned" }],
      ["Task", { prompt: "write hello.txt" }],
      ["mcp__other__write", { path: "x" }],
    ] as const) {
      const v = await ampDecides(a, ws, tool, args);
      expect(v, tool).toMatchObject({ action: "reject", exit: 2 });
      expect(v.error, tool).toContain(`${tool} is not allowed until your plan is approved`);
      expect(v.error, tool).toContain("call submit_plan");
    }
    for (const [tool, args] of [
      ["Read", { path: "README.md" }],
      ["Grep", { pattern: "x" }],
      ["submit_plan", { plan: PLAN }],
    ] as const)
      expect(await ampDecides(a, ws, tool, args), tool).toMatchObject({ action: "allow", exit: 0 });
  }, 120_000);

  it("submit_plan puts the plan on the desk; approved in Chromium, the model reads it and that thread may edit", async () => {
    const { ws, a } = await connected("approve");
    const submitting = ampSubmitsPlan(a, ws, PLAN, "T-approve");
    const review = await pendingReview(1);
    const session = (await api("GET", `/api/sessions/${review.sessionId}`)).body;
    expect(session.session).toMatchObject({ agent: "amp", workspace: fs.realpathSync(ws) });
    const details = (await api("GET", `/api/reviews/${review.id}`)).body;
    expect(details.plan.markdown).toBe(PLAN);
    expect(details.plan.receives).toMatchObject({ agent: "amp", editedPlan: true, notesOnApproval: true });
    // While the plan waits, the thread's edit is still refused.
    expect(await ampDecides(a, ws, "edit_file", EDIT, "T-approve")).toMatchObject({ action: "reject" });
    await approveInBrowser({ url: fixture.server().url, api, review, shows: "Create hello.txt", agent: "Run by Amp" });
    const result = await submitting;
    expect(result.name).toBe("submit_plan");
    expect(result.text).toMatch(/^The plan was approved on Plangate/);
    expect(result.text).toContain("Create hello.txt with a greeting.");
    expect(await ampDecides(a, ws, "edit_file", EDIT, "T-approve")).toMatchObject({ action: "allow", exit: 0 });
    expect(await ampDecides(a, ws, "shell_command", { command: "npm test" }, "T-approve")).toMatchObject({
      action: "allow",
    });
    // The approval is that thread's, in that project: another thread plans first, and so does the same thread
    // carried on in another connected project.
    expect(await ampDecides(a, ws, "edit_file", EDIT, "T-other")).toMatchObject({ action: "reject" });
    const elsewhere = await connected("approve-elsewhere");
    expect(await ampDecides(elsewhere.a, elsewhere.ws, "edit_file", EDIT, "T-approve")).toMatchObject({
      action: "reject",
    });
  }, 180_000);

  it("sent back with feedback: submit_plan fails with it, version 2 follows, and an approval's note reaches the model", async () => {
    const { ws, a } = await connected("revise");
    // Version 2 is submitted once the model has read the send-back, as a thread would.
    const v2 = ampSubmitsPlan(a, ws, PLAN, "T-revise").then((r) => {
      expect(r.error).toContain("Add a test.");
      expect(r.error).toContain("submit_plan");
      expect(r.error).not.toContain("exit_plan_mode");
      return ampSubmitsPlan(a, ws, PLAN_V2, "T-revise");
    });
    const second = await sendBackForVersion2(api, pendingReview, {
      feedback: "Add a test.",
      v1: PLAN,
      added: "+2. Add a test that reads it.",
    });
    expect(await ampDecides(a, ws, "edit_file", EDIT, "T-revise")).toMatchObject({ action: "reject" });
    const approved = await approveAs(fixture.server().url, cookie(), second.id, { feedback: "Keep it short." });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const result = await v2;
    expect(result.text).toMatch(/^The plan was approved on Plangate/);
    expect(result.text).toContain("Keep it short.");
    expect(await ampDecides(a, ws, "edit_file", EDIT, "T-revise")).toMatchObject({ action: "allow" });
  }, 180_000);

  it("with --asks, calls after the approval wait on the permission card: one allowed goes on, one refused does not", async () => {
    const { ws, a } = await connected("asks", ["--asks"]);
    await approvedThread(a, ws, "T-asks");
    const patch = "*** Begin Patch\n*** Add File: hello.txt\n+hello\n*** End Patch";
    const [edit] = await Promise.all([
      ampDecides(a, ws, "apply_patch", { patchText: patch }, "T-asks"),
      replyNextAsk(api, "edit", { reply: "once" }),
    ]);
    expect(edit).toMatchObject({ action: "allow", exit: 0 });
    const [shell] = await Promise.all([
      ampDecides(a, ws, "shell_command", { command: "rm -rf build" }, "T-asks"),
      replyNextAsk(api, "bash", { reply: "reject", message: "No shell here, please." }),
    ]);
    expect(shell).toMatchObject({ action: "reject", exit: 2 });
    expect(shell.error).toContain("No shell here, please.");
    // A command run in a folder outside the project (named, or through a link in it) never reaches the desk as
    // the project's: refused unread.
    fs.symlinkSync(a.home, path.join(ws, "innocent"));
    for (const workdir of [a.home, path.join(ws, "innocent")]) {
      const outside = await ampDecides(a, ws, "shell_command", { command: "rm -rf .", workdir }, "T-asks");
      expect(outside, workdir).toMatchObject({ action: "reject", exit: 2 });
      expect(outside.error).toContain("runs outside the project");
    }
    // Reading still needs no one.
    expect(await ampDecides(a, ws, "Read", { path: "hello.txt" }, "T-asks")).toMatchObject({ action: "allow" });
  }, 180_000);

  it("the plugin's own gate holds where Amp would run without the delegate", async () => {
    const { ws, a } = await connected("shadowed");
    await approvedThread(a, ws, "T-shadowed");
    // With the delegate in force, the plugin's gate follows the approval: that thread goes on, another plans first.
    expect(await ampPluginGates(a, ws, "edit_file", EDIT, "T-shadowed")).toEqual({ action: "allow" });
    const other = await ampPluginGates(a, ws, "edit_file", EDIT, "T-other");
    expect(other).toMatchObject({ action: "reject-and-continue" });
    expect(other.message).toContain("edit_file is not allowed until your plan is approved");
    expect(await ampPluginGates(a, ws, "Read", { path: "README.md" }, "T-other")).toEqual({ action: "allow" });
    const outOfForce = async (where: string | null, why: string) => {
      const gated = await ampPluginGates(a, where, "edit_file", EDIT, "T-shadowed");
      expect(gated, why).toMatchObject({ action: "reject-and-continue" });
      expect(gated.message, why).toMatch(where === null ? /no workspace open/ : /start Amp in the connected project/);
    };
    // Amp started in a subfolder of a project that is not a git repository reads no project settings at all, and
    // one started above a connected project reads none of its: Amp lets the edit by, the plugin does not, even
    // for the approved thread (its asks would be lost).
    const sub = path.join(ws, "src");
    fs.mkdirSync(sub);
    expect(await ampDecides(a, sub, "edit_file", EDIT, "T-shadowed")).toMatchObject({ action: "allow" });
    await outOfForce(sub, "a subfolder");
    await outOfForce(path.dirname(ws), "a folder above the project");
    // Without a workspace the plugin cannot tell the project: it gates, and takes no plan.
    await outOfForce(null, "no workspace");
    expect((await ampSubmitsPlan(a, null, PLAN, "T-shadowed")).error).toContain("no workspace open");
    // A pull that drops Plangate's rule and turns allow-all on: Amp itself lets everything by.
    fs.writeFileSync(path.join(ws, ".amp", "settings.json"), '{"amp.dangerouslyAllowAll": true}');
    expect(await ampDecides(a, ws, "edit_file", EDIT, "T-shadowed")).toMatchObject({ action: "allow" });
    await outOfForce(ws, "settings without the delegate");
  }, 180_000);

  it("a new plan plans again: the thread's earlier approval no longer opens the gate when the new one is sent back", async () => {
    const { ws, a } = await connected("replan");
    await approvedThread(a, ws, "T-replan");
    expect(await ampDecides(a, ws, "edit_file", EDIT, "T-replan")).toMatchObject({ action: "allow" });
    const second = ampSubmitsPlan(a, ws, PLAN_V2, "T-replan");
    const v2 = await pendingReview(2);
    // While the new plan waits, and after it is sent back, the thread's changes are refused.
    expect(await ampDecides(a, ws, "edit_file", EDIT, "T-replan")).toMatchObject({ action: "reject" });
    expect((await api("POST", `/api/reviews/${v2.id}/decision`, { decision: "reject", feedback: "No." })).status).toBe(
      200,
    );
    expect((await second).error).toContain("No.");
    expect(await ampDecides(a, ws, "edit_file", EDIT, "T-replan")).toMatchObject({ action: "reject" });
  }, 180_000);

  it("--remove takes Plangate's rule out and keeps the project's own; a delegate is never connected for every project", async () => {
    const { ws, a, how } = await connected("remove");
    const file = path.join(ws, ".amp", "settings.json");
    const own = { tool: "Bash", matches: { cmd: "*git push*" }, action: "ask" };
    const settings = JSON.parse(fs.readFileSync(file, "utf8"));
    settings["amp.permissions"].push(own);
    settings["amp.dangerouslyAllowAll"] = true;
    fs.writeFileSync(file, JSON.stringify(settings));
    expect(connectByEmail(how, ["--scope", "user"]).status).toBe(2);
    // Connecting again keeps one rule of Plangate's, first, and the project's own after it.
    expect(connectByEmail(how).status).toBe(0);
    const again = JSON.parse(fs.readFileSync(file, "utf8"));
    const twice = again["amp.permissions"];
    expect(twice).toHaveLength(2);
    expect(twice[1]).toEqual(own);
    // Amp lets every call through before any rule while allow-all is on: connected, it is off in the project.
    expect(again["amp.dangerouslyAllowAll"]).toBe(false);
    const removed = connectByEmail(how, ["--remove"]);
    expect(removed.status, removed.stderr).toBe(0);
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).toEqual({ "amp.permissions": [own] });
    expect(fs.existsSync(twice[0].to)).toBe(false);
    // Amp's own rules decide again.
    expect(await ampDecides(a, ws, "Bash", { cmd: "git push" })).toMatchObject({ action: "ask", exit: 1 });
  }, 120_000);
});
