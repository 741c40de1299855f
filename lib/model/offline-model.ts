import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { lastUserText, localModel, type LocalStep } from "./local-model";

const STOP = new Set([
  "the",
  "and",
  "for",
  "with",
  "that",
  "this",
  "from",
  "into",
  "please",
  "should",
  "would",
  "could",
  "make",
  "have",
  "what",
]);

/** Words of the task worth searching for, longest first. */
export function taskWords(task: string): string[] {
  const words = task.toLowerCase().match(/[a-z][a-z0-9_-]{3,}/g) ?? [];
  return [...new Set(words.filter((w) => !STOP.has(w)))]
    .sort((a, b) => b.length - a.length || a.localeCompare(b))
    .slice(0, 3);
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Results of the tools called since the last user message, in order. */
function resultsSinceUser(prompt: LanguageModelV3Prompt): { tool: string; text: string }[] {
  const out: { tool: string; text: string }[] = [];
  for (const m of prompt) {
    if (m.role === "user") out.length = 0;
    if (m.role !== "tool") continue;
    for (const part of m.content) {
      if (part.type !== "tool-result") continue;
      const o = part.output;
      const text = o.type === "text" || o.type === "error-text" ? o.value : JSON.stringify(o);
      out.push({ tool: part.toolName, text });
    }
  }
  return out;
}

function firstFile(grepOutput: string): string | null {
  const line = grepOutput.split("\n").find((l) => /^[^\s:][^:]*:\d+:/.test(l));
  return line ? (line.split(":")[0] ?? null) : null;
}

/**
 * The offline demo model: deterministic, no network. It explores the real workspace with the real tools
 * (list, grep for the task's words, read), then makes one small visible change through the same gates,
 * and reports what it did. Every call it makes is judged like any model's.
 */
function systemText(prompt: LanguageModelV3Prompt): string {
  return prompt.flatMap((m) => (m.role === "system" ? [m.content] : [])).join("\n");
}

/** What a review sent back: the overall feedback and each line comment (quote and words), from the exit tool's error. */
export function reviewOf(result: string): { feedback: string | null; comments: { quote: string; body: string }[] } {
  const feedback =
    /Their feedback:\n([\s\S]*?)(?:\n\nComments on lines of the plan|\nRevise the plan file|$)/
      .exec(result)?.[1]
      ?.trim() || null;
  const comments: { quote: string; body: string }[] = [];
  for (const m of result.matchAll(
    /^- Lines? [\d–]+:\n((?: {2}> .*\n)+) {2}([\s\S]*?)(?=\n- Lines? |\nRevise the plan file|$)/gm,
  )) {
    const quote = m[1]!
      .split("\n")
      .filter(Boolean)
      .map((l) => l.replace(/^ {2}> /, ""))
      .join("\n");
    comments.push({ quote, body: m[2]!.replace(/\n {2}/g, " ").trim() });
  }
  return { feedback, comments };
}

/**
 * The demo's plan, built from the request and what it read: the change it will make (a note of the task in
 * PLANGATE-NOTES.md), the files it looked at as context (not as changes), and on a revision one step per
 * point of the review, with each commented line amended by its comment.
 */
export function demoPlan(
  task: string,
  target: string,
  previous: string | null,
  review: ReturnType<typeof reviewOf> | null,
): string {
  const title = task.trim().split("\n")[0]?.slice(0, 100) || "look after the workspace";
  let steps = [
    `1. Write PLANGATE-NOTES.md recording the task: ${title}`,
    "2. List in PLANGATE-NOTES.md what was found in the files read",
  ];
  if (previous) steps = previous.split("\n").filter((l) => /^\d+\. /.test(l));
  for (const c of review?.comments ?? [])
    steps = steps.map((l) => (c.quote.split("\n").includes(l) ? `${l} (review: ${c.body})` : l));
  if (review?.feedback)
    steps.push(
      `${steps.length + 1}. Address the review in PLANGATE-NOTES.md: ${review.feedback.replace(/\s+/g, " ").slice(0, 300)}`,
    );
  return [
    `# Plan: ${title}`,
    "",
    "## Context",
    `- Read \`${target}\` for the task's words.`,
    "",
    "## Steps",
    ...steps,
    "",
    "## Files",
    "- PLANGATE-NOTES.md",
    "",
  ].join("\n");
}

/** The approved plan's text, from the exit tool's result. */
function approvedPlan(result: string): string | null {
  const at = result.search(/^## Approved Plan/m);
  return at === -1 ? null : result.slice(result.indexOf("\n", at) + 1);
}

/** The note that carries out the plan: every step's words, so the check after the turn finds each one done. */
function noteFor(task: string, target: string, plan: string): string {
  const steps = plan.split("\n").filter((l) => /^\d+\. /.test(l));
  return [
    "# Notes from the offline demo model",
    "",
    `Task: ${task.trim() || "(none)"}`,
    "",
    `Files read: ${target}`,
    "",
    "## Done",
    ...steps.map((l) => `- ${l.replace(/^\d+\. /, "")}`),
    "",
  ].join("\n");
}

export function decideOffline(prompt: LanguageModelV3Prompt, tools: string[]): LocalStep {
  const task = lastUserText(prompt);
  const done = resultsSinceUser(prompt);
  const words = taskWords(task);
  const step = done.length;
  const planning = /PLAN MODE ACTIVE|Plan mode is on/.test(systemText(prompt));
  if (step === 0 && tools.includes("list"))
    return { text: "Let me look at the workspace first.", toolCalls: [{ name: "list", input: { path: "." } }] };
  if (step === 1 && tools.includes("grep") && words.length > 0) {
    return {
      text: `Searching for ${words.join(", ")}.`,
      toolCalls: [{ name: "grep", input: { pattern: words.map(escapeRegex).join("|") } }],
    };
  }
  const grep = done.find((d) => d.tool === "grep");
  const target = (grep && firstFile(grep.text)) ?? "README.md";
  if (!done.some((d) => d.tool === "read") && tools.includes("read"))
    return { text: `Reading ${target}.`, toolCalls: [{ name: "read", input: { path: target } }] };
  const last = done.at(-1);
  const exits = done.filter((d) => d.tool === "exit_plan_mode");
  const approved = exits.map((e) => approvedPlan(e.text)).find((p) => p !== null) ?? null;
  if (planning && approved === null) {
    // In plan mode the demo writes a plan and asks for approval; a review sent back revises it point by point.
    if (last?.tool === "exit_plan_mode" && /stay in plan mode/i.test(last.text))
      return { text: "I will wait for your message." };
    const sentBack = last?.tool === "exit_plan_mode" ? reviewOf(last.text) : null;
    const previous = sentBack
      ? (prompt
          .flatMap((m) => (m.role === "assistant" ? m.content : []))
          .flatMap((p) =>
            p.type === "tool-call" && p.toolName === "exit_plan_mode"
              ? [(p.input as { plan?: string }).plan ?? ""]
              : [],
          )
          .at(-1) ?? null)
      : null;
    const plan = demoPlan(task, target, previous, sentBack);
    return {
      text: sentBack ? "Revising the plan with your review." : "Here is my plan.",
      toolCalls: [{ name: "exit_plan_mode", input: { plan } }],
    };
  }
  if (!done.some((d) => d.tool === "write") && tools.includes("write")) {
    const note = noteFor(task, target, approved ?? demoPlan(task, target, null, null));
    return {
      text: "Carrying out the plan: writing the note.",
      toolCalls: [{ name: "write", input: { path: "PLANGATE-NOTES.md", content: note } }],
    };
  }
  const outcome =
    last && /error|denied|rejected/i.test(last.text)
      ? `The last step did not go through: ${last.text.slice(0, 200)}`
      : "Done.";
  return {
    text: `I explored the workspace for "${task.trim()}" and looked at ${target}. ${outcome} (offline demo model)`,
  };
}

export function offlineModel() {
  return localModel("offline", "offline-demo", ({ prompt, tools }) => decideOffline(prompt, tools));
}
