// The real OpenCode CLI (`opencode serve`, plan mode) with Plangate's plugin, against a fake OpenAI-compatible
// model API and a stand-in for Plangate's external review API. Verifies the protocol the plugin relies on:
// plan_exit blocks in tool.execute.before while the desk decides; a thrown Error's text becomes the tool result
// (still planning); after an approval, OpenCode's Question for that call is answered "Yes" by the plugin and the
// build agent runs.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { opencodePluginFile } from "../../cli/opencode-plugin-file";
import { OPENCODE_PLUGIN_BUNDLE } from "../../scripts/build-bundles";
import { answersCall, planPath, startFakeOpenAI, toolResult, type FakeOpenAI, type Recorded } from "./fake-openai";
import { cliForSuite, OPENCODE } from "./install-clis";
import { startOpencode, type OpencodeServer } from "./run-opencode";
import { startStandinPlangate, type StandinPlangate } from "./standin-plangate";

const opencode = await cliForSuite(OPENCODE);
const TOKEN = "opencode-protocol-test-token";

const offers = (r: Recorded, tool: string) => (r.body.tools ?? []).some((t) => t.function.name === tool);
const timings: string[] = [];

describe.skipIf(!opencode)(
  `OpenCode ${OPENCODE.version}: plan_exit reviewed through the Plangate plugin (real CLI, fake API)`,
  () => {
    let fake: FakeOpenAI;
    let desk: StandinPlangate;
    let oc: OpencodeServer;

    beforeAll(async () => {
      fake = await startFakeOpenAI();
      desk = await startStandinPlangate({ token: TOKEN, maxWaitSeconds: 1 });
      const t0 = Date.now();
      oc = await startOpencode({
        bin: opencode as string,
        modelBaseUrl: fake.url,
        // The plugin as `plangate connect opencode` writes it (the bundle the tests' setup built), with a token.
        files: {
          ".opencode/plugin/plangate.js": opencodePluginFile(fs.readFileSync(OPENCODE_PLUGIN_BUNDLE, "utf8"), {
            url: desk.url,
            token: TOKEN,
          }),
        },
      });
      timings.push(`opencode serve ready in ${Date.now() - t0} ms`);
    }, 120_000);

    afterAll(async () => {
      await oc?.stop();
      await fake?.close();
      await desk?.close();
      console.log(`opencode-protocol timings: ${timings.join("; ")}`);
    });

    it("approve: the plugin answers OpenCode's question Yes, the build agent runs and sees the edited plan", async () => {
      const original = "# Plan\n\n1. Create hello.txt saying hi.\n";
      const edited = "# Plan (edited in Plangate)\n\n1. Create hello.txt saying hello.\n";
      let file = "";
      fake.push(
        (req) => {
          file = planPath(req);
          return {
            text: "Writing the plan.",
            toolCalls: [{ name: "write", args: { filePath: file, content: original } }],
          };
        },
        { toolCalls: [{ name: "plan_exit", args: {}, id: "call_exit_approve" }] },
        () => ({ toolCalls: [{ name: "read", args: { filePath: file }, id: "call_read_plan" }] }),
        { toolCalls: [{ name: "write", args: { filePath: "hello.txt", content: "hello\n" } }] },
        { text: "Done." },
      );
      const session = await oc.createSession();
      const from = oc.events.length;
      const t0 = Date.now();
      await oc.prompt(session.id, "Plan: add hello.txt");

      const review = await desk.waitForReview(0, 60_000);
      timings.push(`approve: review arrived ${Date.now() - t0} ms after the prompt`);
      expect(review.body).toMatchObject({
        agent: "opencode",
        externalSessionId: session.id,
        cwd: oc.workspace,
        plan: original,
      });
      expect(review.body.planFilePath).toBe(
        path.join(oc.workspace, ".opencode", "plans", `${session.time.created}-${session.slug}.md`),
      );
      expect(fake.main().some(answersCall("call_exit_approve"))).toBe(false); // plan_exit is blocked while the desk decides

      await new Promise((r) => setTimeout(r, 2500)); // the plugin polls again meanwhile (the stand-in caps wait at 1 s)
      expect(oc.events.slice(from).some((e) => e.type === "question.asked")).toBe(false);
      desk.decide(review.id, { status: "approved", plan: edited, mode: "acceptEdits" });
      const t1 = Date.now();
      await oc.waitIdle(session.id, from, 60_000);
      timings.push(`approve: decision to idle ${Date.now() - t1} ms`);
      expect(review.polls).toBeGreaterThanOrEqual(2);
      expect(desk.unauthorized).toBe(0);

      const asked = oc.events.slice(from).find((e) => e.type === "question.asked");
      expect(asked?.properties).toMatchObject({ sessionID: session.id, tool: { callID: "call_exit_approve" } });
      expect(JSON.stringify(asked?.properties.questions)).toContain("Would you like to switch to the build agent");
      const replied = oc.events.slice(from).find((e) => e.type === "question.replied");
      expect(replied?.properties).toMatchObject({
        requestID: (asked?.properties as { id: string } | undefined)?.id,
        answers: [["Yes"]],
      });

      const afterExit = fake.main().find(answersCall("call_exit_approve")) as Recorded;
      expect(toolResult(afterExit.body, "call_exit_approve")).toBe(
        "User approved switching to build agent. Wait for further instructions.",
      );
      expect(offers(afterExit, "plan_exit")).toBe(false); // the build agent
      expect(JSON.stringify(afterExit.body.messages)).toContain("has been approved, you can now edit files");
      const afterRead = fake.main().find(answersCall("call_read_plan")) as Recorded;
      expect(toolResult(afterRead.body, "call_read_plan")).toContain("Plan (edited in Plangate)");
      expect(fs.readFileSync(file, "utf8")).toBe(edited);
      expect(fs.readFileSync(path.join(oc.workspace, "hello.txt"), "utf8")).toBe("hello\n");
    }, 150_000);

    it("reject: the feedback is plan_exit's result, nothing is written and the agent is still planning", async () => {
      const feedback = "Rejected in Plangate.\n\nLine 3: say hello, not hi.";
      fake.push(
        (req) => ({
          text: "Writing the plan.",
          toolCalls: [
            { name: "write", args: { filePath: planPath(req), content: "# Plan\n\n1. Create rejected.txt.\n" } },
          ],
        }),
        { toolCalls: [{ name: "plan_exit", args: {}, id: "call_exit_reject" }] },
        {
          toolCalls: [
            { name: "write", args: { filePath: "rejected.txt", content: "no\n" }, id: "call_write_after_reject" },
          ],
        },
        { text: "I will revise the plan." },
      );
      const session = await oc.createSession();
      const from = oc.events.length;
      const count = desk.reviews.length;
      const t0 = Date.now();
      await oc.prompt(session.id, "Plan: add rejected.txt");

      const review = await desk.waitForReview(count, 60_000);
      timings.push(`reject: review arrived ${Date.now() - t0} ms after the prompt`);
      expect(review.body.externalSessionId).toBe(session.id);
      desk.decide(review.id, { status: "rejected", message: feedback });
      const t1 = Date.now();
      await oc.waitIdle(session.id, from, 60_000);
      timings.push(`reject: decision to idle ${Date.now() - t1} ms`);

      const afterExit = fake.main().find(answersCall("call_exit_reject")) as Recorded;
      expect(toolResult(afterExit.body, "call_exit_reject")).toBe(feedback);
      expect(offers(afterExit, "plan_exit")).toBe(true); // still the plan agent
      expect(oc.events.slice(from).some((e) => e.type === "question.asked")).toBe(false);
      const afterWrite = fake.main().find(answersCall("call_write_after_reject")) as Recorded;
      expect(offers(afterWrite, "plan_exit")).toBe(true);
      expect(toolResult(afterWrite.body, "call_write_after_reject")).toMatch(
        /rule which prevents you from using this specific tool call/,
      );
      expect(fs.existsSync(path.join(oc.workspace, "rejected.txt"))).toBe(false);

      const messages = await oc.messages(session.id);
      const exitPart = messages.flatMap((m) => m.parts).find((p) => p.callID === "call_exit_reject");
      expect(exitPart?.state).toMatchObject({ status: "error", error: feedback });
    }, 150_000);

    it("refused by Plangate (403): the plugin logs why and leaves the decision to OpenCode's own question", async () => {
      const why = "cwd is not inside Plangate's workspace roots";
      desk.refuse = { status: 403, error: why };
      fake.push(
        (req) => ({
          toolCalls: [{ name: "write", args: { filePath: planPath(req), content: "# Plan\n\n1. Nothing.\n" } }],
        }),
        { toolCalls: [{ name: "plan_exit", args: {}, id: "call_exit_refused" }] },
      );
      const session = await oc.createSession();
      const from = oc.events.length;
      const count = desk.reviews.length;
      try {
        await oc.prompt(session.id, "Plan: nothing");
        const asked = await oc.waitForEvent(
          (e) =>
            e.type === "question.asked" &&
            (e.properties.tool as { callID?: string } | undefined)?.callID === "call_exit_refused",
          60_000,
        );
        await new Promise((r) => setTimeout(r, 1000));
        expect(oc.events.slice(from).some((e) => e.type === "question.replied")).toBe(false); // waits for the person
        expect(desk.reviews.length).toBe(count);
        expect(oc.output()).toContain(
          `Plangate did not take the plan: Plangate at ${desk.url} refused the plan (403): ${why}`,
        );
        const requests = fake.main().length;
        await oc.api("POST", `/question/${(asked.properties as { id: string }).id}/reply`, { answers: [["No"]] });
        await oc.waitIdle(session.id, from, 60_000);
        // OpenCode's own "No" ends the turn: plan_exit fails and the model is not called again
        expect(fake.main().length).toBe(requests);
        const messages = await oc.messages(session.id);
        const exitPart = messages.flatMap((m) => m.parts).find((p) => p.callID === "call_exit_refused");
        expect(exitPart?.state?.status).toBe("error");
      } finally {
        desk.refuse = null;
      }
    }, 150_000);
  },
);
