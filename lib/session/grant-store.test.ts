import { describe, expect, it } from "vitest";
import { fromConfig, judgeCall, type CallAsk } from "../permission";
import { grantRuleset } from "./grant-store";

const base = fromConfig({ "*": "allow", bash: "ask", edit: "ask" });
const bash = (patterns: string[]): CallAsk => ({ permission: "bash", patterns, readOnly: false });
const judge = (asks: CallAsk[], grantRules: ReturnType<typeof grantRuleset>, actor: "agent" | "outside" = "agent") =>
  judgeCall({
    actor,
    asks,
    agentRules: actor === "agent" ? base : [],
    grantRules,
    mode: "default",
    gates: { autoGateOpen: true, bypassEnabled: true },
    allowedOnce: new Set(),
  });

describe("grants as rules", () => {
  it("grants read again with the same content are the same ruleset (compiled once); a change gives a new one", () => {
    const rows = [
      { permission: "bash", pattern: "npm run *", exact: false },
      { permission: "bash", pattern: "make build", exact: true },
    ];
    const first = grantRuleset(rows.map((r) => ({ ...r })));
    expect(grantRuleset(rows.map((r) => ({ ...r })))).toBe(first);
    expect(grantRuleset(rows.slice(0, 1))).not.toBe(first);
    expect(grantRuleset([{ ...rows[0]!, exact: true }, rows[1]!])).not.toBe(first);
    // a revoked grant stops answering at once: the new content is judged, not a cached compile of the old
    const ask = bash(["make build"]);
    expect(judge([ask], first).kind).toBe("allow");
    expect(judge([ask], grantRuleset(rows.slice(0, 1))).kind).toBe("ask");
  });

  it("a grant answers only for the actor it was made for", () => {
    const forAgent = grantRuleset([{ permission: "bash", pattern: "mkdir *", exact: false, actor: "agent" }]);
    const forOutside = grantRuleset([{ permission: "bash", pattern: "mkdir *", exact: false, actor: "outside" }]);
    expect(forAgent).not.toBe(forOutside);
    expect(judge([bash(["mkdir x"])], forAgent, "agent").kind).toBe("allow");
    expect(judge([bash(["mkdir x"])], forAgent, "outside").kind).toBe("ask");
    expect(judge([bash(["mkdir x"])], forOutside, "agent").kind).toBe("ask");
    expect(judge([bash(["mkdir x"])], forOutside, "outside").kind).toBe("allow");
  });
});
