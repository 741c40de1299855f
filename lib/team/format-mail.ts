import type { MailView } from "./mailbox";

/** Pure: how a delivered message reads to the recipient's model (one user message per delivery). */
export function formatMail(messages: MailView[], names: Record<string, string>): string {
  const lines = messages.map((m) => {
    const from = names[m.from] ?? m.from;
    const p = m.payload;
    switch (m.type) {
      case "plan_approval_request":
        return [
          `plan_approval_request from ${from} (requestId ${m.requestId}, version ${String(p.version)}, file ${String(p.planFilePath)}):`,
          String(p.planContent ?? ""),
          `Answer with send_message {to: "${from}", type: "plan_approval_response", requestId: "${m.requestId}", approve: true|false, feedback?}.`,
        ].join("\n");
      case "plan_approval_response":
        return `plan_approval_response from ${from} (requestId ${m.requestId}): ${p.approve ? "approved" : "rejected"}${p.feedback ? `. Feedback: ${String(p.feedback)}` : ""}`;
      default:
        return `message from ${from}: ${String(p.text ?? "")}`;
    }
  });
  return `[Team mailbox]\n\n${lines.join("\n\n")}`;
}
