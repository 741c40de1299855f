// What an outside agent's model was told, read from the fake OpenAI-compatible API's requests, and the person's
// answer to the next ask on the permission card: shared by the agents' real-CLI suites.
import { expect } from "vitest";
import { until } from "../helpers/poll";
import { approveAs } from "../helpers/people";
import { answersCall, messageText, toolResult, type FakeOpenAI } from "./fake-openai";

type Api = (method: string, route: string, body?: unknown) => Promise<{ status: number; body: any }>;

/** The result the model was given for its call `id`, from the first request that carries it. */
export const told = (fake: FakeOpenAI, id: string) =>
  fake
    .main()
    .map((r) => toolResult(r.body, id))
    .find((t) => t !== undefined);

/** Everything the model was told from its call `id`'s result on (the result and the messages after it). */
export const toldAfter = (fake: FakeOpenAI, id: string) => {
  const msgs = fake.main().find(answersCall(id))?.body.messages ?? [];
  return msgs
    .slice(msgs.findIndex((m) => m.role === "tool" && m.tool_call_id === id))
    .map(messageText)
    .join("\n");
};

/** Waits for the one pending ask, checks what it asks for, and answers it as a person on the card would. */
export async function replyNextAsk(api: Api, permission: string, reply: Record<string, unknown>) {
  const asked = await until(
    () => api("GET", "/api/permissions?status=pending"),
    (r) => r.body.permissions.length === 1,
    60_000,
  );
  const ask = asked.body.permissions[0] as { id: string; permission: string };
  expect(ask.permission).toBe(permission);
  expect((await api("POST", `/api/permissions/${ask.id}/reply`, reply)).status).toBe(200);
}

type Pending = { id: string; sessionId: string };

/**
 * Sends version 1 back with feedback, as a person on the card would, and waits for the agent's version 2 of the same
 * plan: its card shows version 1 beside it and the line the revision added. Returns version 2's review.
 */
export async function sendBackForVersion2(
  api: Api,
  pendingReview: (version: number) => Promise<Pending>,
  o: { feedback: string; v1: string; added: string },
): Promise<Pending> {
  const first = await pendingReview(1);
  const sent = await api("POST", `/api/reviews/${first.id}/decision`, { decision: "reject", feedback: o.feedback });
  expect(sent.status).toBe(200);
  const second = await pendingReview(2);
  expect(second.sessionId).toBe(first.sessionId);
  const details = (await api("GET", `/api/reviews/${second.id}`)).body;
  expect(details.plan.previous).toEqual({ version: 1, markdown: o.v1 });
  expect(details.plan.diff).toContain(o.added);
  return second;
}

/**
 * Version 1 sent back with "Add a test." (which adds `added`), then version 2 approved by the signed-in person
 * (`cookie`) with an edit and a note: what the two send-back suites of the plugin agents share.
 */
export async function sendBackThenApproveEdited(
  api: Api,
  pendingReview: (version: number) => Promise<Pending>,
  o: { v1: string; added: string; url: string; cookie: string; edited: string; note: string },
): Promise<void> {
  const second = await sendBackForVersion2(api, pendingReview, { feedback: "Add a test.", v1: o.v1, added: o.added });
  const approved = await approveAs(o.url, o.cookie, second.id, { plan: o.edited, feedback: o.note });
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
}
