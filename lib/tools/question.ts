import { z } from "zod";
import { findReviewOfCall, insertReview } from "../db/plans/reviews";
import { newId } from "../id";
import { appendEvents } from "../session/append-events";
import { ToolError, ToolSuspended, type ToolDef } from "./types";

const questionSchema = z.object({
  question: z.string().min(1).max(2000),
  header: z.string().max(60).optional(),
  options: z
    .array(z.object({ label: z.string().min(1).max(200), description: z.string().max(500).optional() }))
    .max(10)
    .optional(),
  multiple: z.boolean().optional(),
});
const input = z.object({ questions: z.array(questionSchema).min(1).max(5) });
export type QuestionInput = z.infer<typeof input>;

export const questionTool: ToolDef<QuestionInput> = {
  name: "question",
  description:
    "Ask the user one or more questions, multiple-choice (options) or free text, and wait for the answers. Use it to settle a choice before planning or acting.",
  permission: "question",
  rerun: "resume",
  inputSchema: input,
  async asks() {
    return [{ permission: "question", patterns: ["*"], always: ["*"], readOnly: true }];
  },
  async execute(args, ctx) {
    const rt = ctx.runtime;
    if (!rt) throw new ToolError("question needs a session");
    if (rt.isSubagent)
      throw new ToolError("A subagent cannot ask the user; put open questions in your final result instead.");
    const review = await findReviewOfCall(rt.db, ctx.sessionId, ctx.callId);
    if (!review) {
      const id = newId("rev");
      await appendEvents(
        rt.db,
        ctx.sessionId,
        [{ type: "review.asked", payload: { reviewId: id, kind: "question", toolCallId: ctx.callId } }],
        {
          also: (tx) =>
            insertReview(tx, {
              id,
              sessionId: ctx.sessionId,
              kind: "question",
              intent: JSON.stringify({ kind: "question" }),
              payload: JSON.stringify(args),
              toolCallId: ctx.callId,
              createdAt: new Date(),
            }),
        },
      );
      throw new ToolSuspended();
    }
    if (review.status === "pending") throw new ToolSuspended();
    if (review.decision === "abandon")
      throw new ToolError(
        "The user dismissed the question and will reply in the chat instead; wait for their message.",
      );
    const answers = JSON.parse(review.answer ?? "[]") as string[][];
    const lines = args.questions.map((q, i) => `${q.question}\n→ ${(answers[i] ?? []).join(", ") || "(no answer)"}`);
    return { output: `The user answered:\n${lines.join("\n\n")}`, metadata: { answers } };
  },
};
