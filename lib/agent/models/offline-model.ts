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
export function decideOffline(prompt: LanguageModelV3Prompt, tools: string[]): LocalStep {
  const task = lastUserText(prompt);
  const done = resultsSinceUser(prompt);
  const words = taskWords(task);
  const step = done.length;
  if (step === 0 && tools.includes("list")) return { text: "Let me look at the workspace first.", toolCalls: [{ name: "list", input: { path: "." } }] };
  if (step === 1 && tools.includes("grep") && words.length > 0) {
    return { text: `Searching for ${words.join(", ")}.`, toolCalls: [{ name: "grep", input: { pattern: words.map(escapeRegex).join("|") } }] };
  }
  const grep = done.find((d) => d.tool === "grep");
  const target = (grep && firstFile(grep.text)) ?? "README.md";
  if (!done.some((d) => d.tool === "read") && tools.includes("read")) return { text: `Reading ${target}.`, toolCalls: [{ name: "read", input: { path: target } }] };
  if (!done.some((d) => d.tool === "write") && tools.includes("write")) {
    const note = `# Notes from the offline demo model\n\nTask: ${task.trim() || "(none)"}\n\nLooked at: ${target}\n`;
    return { text: "Writing a short note about what I found.", toolCalls: [{ name: "write", input: { path: "PLANGATE-NOTES.md", content: note } }] };
  }
  const last = done.at(-1);
  const outcome = last && /error|denied|rejected/i.test(last.text) ? `The last step did not go through: ${last.text.slice(0, 200)}` : "Done.";
  return { text: `I explored the workspace for "${task.trim()}" and looked at ${target}. ${outcome} (offline demo model)` };
}

export function offlineModel() {
  return localModel("offline", "offline-demo", ({ prompt, tools }) => decideOffline(prompt, tools));
}
