import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { lastUserText, localModel, type LocalStep } from "./local-model";

const STOP = new Set(["the", "and", "for", "with", "that", "this", "from", "into", "please", "should", "would", "could", "make", "have", "what"]);

/** Words of the task worth searching for, longest first. */
export function taskWords(task: string): string[] {
  const words = task.toLowerCase().match(/[a-z][a-z0-9_-]{3,}/g) ?? [];
  return [...new Set(words.filter((w) => !STOP.has(w)))].sort((a, b) => b.length - a.length || a.localeCompare(b)).slice(0, 3);
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

function demoPlan(task: string, target: string, feedback: string | null): string {
  return [
    `# Plan: ${task.trim() || "look after the workspace"}`,
    "",
    "## Steps",
    `1. Re-read \`${target}\` and the files next to it.`,
    "2. Write `PLANGATE-NOTES.md` with what was found and what to change.",
    "3. Check the result by reading the note back.",
    "",
    "## Files",
    "- `PLANGATE-NOTES.md`",
    ...(feedback ? ["", "## Changes after review", `- ${feedback.replace(/\s+/g, " ").slice(0, 300)}`] : []),
    "",
  ].join("\n");
}

export function decideOffline(prompt: LanguageModelV3Prompt, tools: string[]): LocalStep {
  const task = lastUserText(prompt);
  const done = resultsSinceUser(prompt);
  const words = taskWords(task);
  const step = done.length;
  const planning = /PLAN MODE ACTIVE|Plan mode is on/.test(systemText(prompt));
  if (step === 0 && tools.includes("list")) return { text: "Let me look at the workspace first.", toolCalls: [{ name: "list", input: { path: "." } }] };
  if (step === 1 && tools.includes("grep") && words.length > 0) {
    return { text: `Searching for ${words.join(", ")}.`, toolCalls: [{ name: "grep", input: { pattern: words.map(escapeRegex).join("|") } }] };
  }
  const grep = done.find((d) => d.tool === "grep");
  const target = (grep && firstFile(grep.text)) ?? "README.md";
  if (!done.some((d) => d.tool === "read") && tools.includes("read")) return { text: `Reading ${target}.`, toolCalls: [{ name: "read", input: { path: target } }] };
  const last = done.at(-1);
  if (planning) {
    // In plan mode the demo writes a plan and asks for approval; a rejection's feedback goes into the next version.
    const feedback = last?.tool === "exit_plan_mode" ? last.text : null;
    if (last?.tool === "exit_plan_mode" && /stay in plan mode/i.test(last.text)) return { text: "I will wait for your message." };
    return { text: feedback ? "Revising the plan with your feedback." : "Here is my plan.", toolCalls: [{ name: "exit_plan_mode", input: { plan: demoPlan(task, target, feedback) } }] };
  }
  if (!done.some((d) => d.tool === "write") && tools.includes("write")) {
    const note = `# Notes from the offline demo model\n\nTask: ${task.trim() || "(none)"}\n\nLooked at: ${target}\n`;
    return { text: "Writing a short note about what I found.", toolCalls: [{ name: "write", input: { path: "PLANGATE-NOTES.md", content: note } }] };
  }
  const outcome = last && /error|denied|rejected/i.test(last.text) ? `The last step did not go through: ${last.text.slice(0, 200)}` : "Done.";
  return { text: `I explored the workspace for "${task.trim()}" and looked at ${target}. ${outcome} (offline demo model)` };
}

export function offlineModel() {
  return localModel("offline", "offline-demo", ({ prompt, tools }) => decideOffline(prompt, tools));
}
