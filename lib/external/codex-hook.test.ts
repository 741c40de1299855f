import { describe, expect, it } from "vitest";
import { planOfTurn, proposedPlan } from "./codex-hook";

const line = (o: unknown) => JSON.stringify(o);
const planItem = (turn: string, text: string) =>
  line({ type: "event_msg", payload: { type: "item_completed", turn_id: turn, item: { type: "Plan", text } } });
const message = (turn: string, text: string) =>
  line({
    type: "response_item",
    payload: {
      type: "message",
      role: "assistant",
      content: [{ type: "output_text", text }],
      internal_chat_message_metadata_passthrough: { turn_id: turn },
    },
  });

describe("a Codex turn's plan", () => {
  it.each<[string, string, string | null]>([
    ["a closed block", "Here.\n\n<proposed_plan>\n# P\n- a\n</proposed_plan>\n", "# P\n- a\n"],
    ["the last of two", "<proposed_plan>\nold\n</proposed_plan>\n<proposed_plan>\nnew\n</proposed_plan>", "new\n"],
    [
      "one the message ends inside (Codex closes it)",
      "x\n<proposed_plan>\n# Unclosed\n- step\n",
      "# Unclosed\n- step\n",
    ],
    ["tags not alone on their line are text", "see <proposed_plan> here </proposed_plan>", null],
    ["an empty block", "<proposed_plan>\n\n</proposed_plan>", null],
    ["no block", "Just words.", null],
  ])("%s", (_, text, plan) => expect(proposedPlan(text)).toBe(plan));

  it("takes this turn's last Plan item, else this turn's message block; never another turn's", () => {
    const t = [planItem("t1", "# Old turn"), message("t2", "<proposed_plan>\n# From text\n</proposed_plan>")];
    expect(planOfTurn(t.join("\n"), "t2")).toBe("# From text\n");
    expect(planOfTurn([...t, planItem("t2", "# V1"), planItem("t2", "# V2")].join("\n"), "t2")).toBe("# V2\n");
    expect(planOfTurn(t.join("\n"), "t3")).toBeNull();
    expect(planOfTurn(`${t.join("\n")}\n{"type":"event_msg","payl`, "t1")).toBe("# Old turn\n");
  });

  it("a plan sent back by the hook is not proposed again: only a plan after the feedback counts", () => {
    const feedback = line({
      type: "response_item",
      payload: {
        type: "message",
        role: "user",
        content: [{ type: "input_text", text: '<hook_prompt hook_run_id="stop:0">Add a test</hook_prompt>' }],
      },
    });
    expect(planOfTurn([planItem("t1", "# V1"), feedback].join("\n"), "t1")).toBeNull();
    expect(planOfTurn([planItem("t1", "# V1"), feedback, planItem("t1", "# V2")].join("\n"), "t1")).toBe("# V2\n");
  });
});
