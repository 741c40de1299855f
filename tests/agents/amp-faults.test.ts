// Amp's delegate and plugin when things go wrong, with the real CLI (tests/agents/amp.test.ts for the rest): the
// delegate is the gate, and Amp takes its exit code as the answer, so whatever goes wrong must read as a refusal,
// never as "allow" (0) nor as Amp's own dialog (1), which a headless thread would also refuse but a person might
// click through; a plugin whose hook fails takes no plan.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AMP_PLUGIN_BUNDLE } from "../../scripts/build-bundles";
import { ampPluginFile } from "../../cli/amp-plugin-file";
import { hookCommand } from "../../lib/external/hook-command";
import { freePort } from "../helpers/server";
import { hookFaults } from "./hook-faults";
import { replyNextAsk } from "./told";
import { AMP, cliForSuite } from "./install-clis";
import { ampDecides, ampSubmitsPlan } from "./run-amp";
import { ampSuite, EDIT, PLAN, PLANGATE } from "./amp-suite";

const amp = await cliForSuite(AMP);
const { fixture, api, connected, approvedThread } = ampSuite("amp-faults", amp);

describe.skipIf(!amp)(`Amp ${AMP.version}'s delegate and plugin failing (real CLI)`, () => {
  it.each([
    ["its plangate file is gone (Node fails with 1)", "plangate-missing", /Cannot find module/],
    ["the connected projects cannot be read", "connections-garbage", /^Plangate: the delegate failed/],
    ["the server is down after the approval", "server-down", /not allowed until your plan is approved/],
    ["no one answers an ask before the delegate's deadline", "ask-deadline", /^Plangate: .*gave no answer/],
  ])(
    "the delegate, %s: the call is refused",
    async (_name, fault, said) => {
      const { ws, a } = await connected(`delegate-${fault}`, ["--asks"]);
      const thread = `T-${fault}`;
      await approvedThread(a, ws, thread);
      const settings = JSON.parse(fs.readFileSync(path.join(ws, ".amp", "settings.json"), "utf8"));
      const script: string = settings["amp.permissions"][0].to;
      const original = fs.readFileSync(script, "utf8");
      const connections = path.join(a.configHome, "plangate", "connections.json");
      const list = fs.readFileSync(connections, "utf8");
      const broken: Record<string, () => Promise<string>> = {
        "plangate-missing": async () => original.replace(/node '[^']+'/, "node '/nonexistent/plangate.mjs'"),
        "connections-garbage": async () => {
          fs.writeFileSync(connections, "{not json");
          return original;
        },
        "server-down": async () => original.replaceAll(fixture.server().url, `http://127.0.0.1:${await freePort()}`),
        "ask-deadline": async () => original.replace(/'--deadline' '\d+'/, "'--deadline' '2'"),
      };
      try {
        const text = await (broken[fault] as () => Promise<string>)();
        expect(text === original).toBe(fault === "connections-garbage");
        fs.writeFileSync(script, text);
        const v = await ampDecides(a, ws, "edit_file", EDIT, thread);
        expect(v, JSON.stringify(v)).toMatchObject({ action: "reject", exit: 2 });
        expect(v.error).toMatch(said);
      } finally {
        fs.writeFileSync(script, original);
        fs.writeFileSync(connections, list);
      }
      // The ask the delegate gave up on stays on the desk; answered late, it decides nothing.
      if (fault === "ask-deadline") await replyNextAsk(api, "edit", { reply: "once" });
      // Put back, the same call is decided on the desk again.
      const [again] = await Promise.all([
        ampDecides(a, ws, "edit_file", EDIT, thread),
        replyNextAsk(api, "edit", { reply: "once" }),
      ]);
      expect(again).toMatchObject({ action: "allow" });
    },
    120_000,
  );

  it("the plugin Amp loads carries Plangate's rules and no library", () => {
    expect(fs.statSync(AMP_PLUGIN_BUNDLE).size).toBeLessThan(32 * 1024);
  });

  // Last: a plan left waiting on the desk by the deadline case must not be taken for a later test's.
  // The plugin's hook cannot be run, fails, prints nothing, prints garbage, or gets no decision before its
  // deadline: submit_plan fails, nothing is approved, and the thread's edit stays refused.
  it.each(
    hookFaults("amp", [
      "no decision before the hook's deadline",
      async () => hookCommand(PLANGATE, "amp", fixture.server().url, ["--deadline", "2"]),
    ]),
  )(
    "the plugin, %s: submit_plan fails and edits stay refused",
    async (name, command) => {
      const { ws, a } = await connected(`plugin-fault-${name.length}`);
      const file = path.join(a.configHome, "amp", "plugins", "plangate.js");
      const original = fs.readFileSync(file, "utf8");
      try {
        fs.writeFileSync(file, ampPluginFile(fs.readFileSync(AMP_PLUGIN_BUNDLE, "utf8"), { command: await command() }));
        const result = await ampSubmitsPlan(a, ws, PLAN, `T-fault-${name.length}`);
        expect(result.text).toBeUndefined();
        expect(result.error).toMatch(/not approved|no answer|could not be run|not allowed/);
      } finally {
        fs.writeFileSync(file, original);
      }
      expect(await ampDecides(a, ws, "edit_file", EDIT, `T-fault-${name.length}`)).toMatchObject({ action: "reject" });
    },
    120_000,
  );
});
