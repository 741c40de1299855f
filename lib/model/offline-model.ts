import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { demoPlan, noteFor, reviewOf, taskTitle } from "./demo-plan";
import { type DemoShape, NOTES, SHAPES_IN_WORDS, shapeContent, shapeOf } from "./demo-shapes";
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

type Done = { tool: string; text: string; ok: boolean; input: Record<string, unknown> };

/** The tools called since the last user message, with their input and result, in order. */
function resultsSinceUser(prompt: LanguageModelV3Prompt): Done[] {
  const out: Done[] = [];
  const inputs = new Map<string, Record<string, unknown>>();
  for (const m of prompt) {
    if (m.role === "user") out.length = 0;
    if (m.role === "assistant")
      for (const p of m.content)
        if (p.type === "tool-call") inputs.set(p.toolCallId, (p.input ?? {}) as Record<string, unknown>);
    if (m.role !== "tool") continue;
    for (const part of m.content) {
      if (part.type !== "tool-result") continue;
      const o = part.output;
      const text = o.type === "text" || o.type === "error-text" ? o.value : JSON.stringify(o);
      const ok = o.type !== "error-text" && o.type !== "error-json";
      out.push({ tool: part.toolName, text, ok, input: inputs.get(part.toolCallId) ?? {} });
    }
  }
  return out;
}

/** The files a search found, in its order. */
function foundFiles(grepOutput: string): string[] {
  return [
    ...new Set(
      grepOutput
        .split("\n")
        .filter((l) => /^[^\s:][^:]*:\d+:/.test(l))
        .map((l) => l.split(":")[0] ?? ""),
    ),
  ].filter(Boolean);
}

/** A file's text from the read tool's numbered lines. */
function readText(output: string): string {
  const lines = output.split("\n").flatMap((l) => {
    const m = /^\s*\d+\t(.*)$/.exec(l);
    return m ? [m[1] ?? ""] : [];
  });
  return lines.length ? `${lines.join("\n")}\n` : "";
}

function systemText(prompt: LanguageModelV3Prompt): string {
  return prompt.flatMap((m) => (m.role === "system" ? [m.content] : [])).join("\n");
}

/** The file to read for the request: the one it names, the docs, earlier notes, or the best search hit. */
function fileToRead(task: string, done: Done[]): string {
  const draft = shapeOf(task, null, () => false);
  const path = /(?:^|[\s`'"(])((?:[\w.-]+\/)*[\w-]+\.[A-Za-z]{1,5})(?=$|[\s`'",.):;])/.exec(task)?.[1];
  if (path && !path.startsWith(".")) return path;
  if (draft.kind === "docs") return draft.file;
  const listed = done.find((d) => d.tool === "list")?.text ?? "";
  if (draft.kind === "other" && new RegExp(`\\b${NOTES.replace(".", "\\.")}\\b`).test(listed)) return NOTES;
  const grep = done.find((d) => d.tool === "grep")?.text ?? "";
  const hits = foundFiles(grep).filter((f) => !f.startsWith(".plangate/") && f !== NOTES);
  // The file that defines the function a request names comes first: that is where a change to it goes.
  const defines = (name: string) =>
    grep.split("\n").find((l) => new RegExp(`^[^:]+:\\d+:.*\\b(function|def|fn|func)\\s+${name}\\b`).test(l));
  const ident = "name" in draft ? draft.name : null;
  const definer = ident && /^[\w]+$/.test(ident) ? defines(ident)?.split(":")[0] : undefined;
  // Then a file whose name is one of the request's words ("the todo store" → src/todo.ts), code before the rest.
  const words = taskWords(task);
  const named = (f: string) => (words.some((w) => (f.split("/").at(-1) ?? "").toLowerCase().startsWith(w)) ? 0 : 1);
  const code = (f: string) => (/\.(ts|tsx|js|mjs|py|go|rs)$/.test(f) ? 0 : 1);
  // The code a request is about before its tests ("a test for the todo store" reads src/todo.js, not its test).
  const test = (f: string) => (/(^|\/)(tests?|__tests__|spec)\/|\.(test|spec)\.[a-z]+$/i.test(f) ? 1 : 0);
  const ranked = [...hits].sort((a, b) => named(a) - named(b) || test(a) - test(b) || code(a) - code(b));
  return definer ?? ranked[0] ?? "README.md";
}

/**
 * The offline demo model: deterministic, no network. It explores the real workspace with the real tools (list,
 * grep for the task's words, read), plans the one change its kind of request makes (see demo-shapes), and once
 * approved makes it through the same gates, then reports what it did. Every call it makes is judged like any
 * model's.
 */
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
      toolCalls: [{ name: "grep", input: { pattern: `(?i)${words.map(escapeRegex).join("|")}` } }],
    };
  }
  const read = done.find((d) => d.tool === "read");
  if (!read && tools.includes("read")) {
    const target = fileToRead(task, done);
    return { text: `Reading ${target}.`, toolCalls: [{ name: "read", input: { path: target } }] };
  }
  const readPath = String(read?.input.path ?? "README.md");
  const seen = read?.ok ? { path: readPath, text: readText(read.text) } : null;
  const shape = shapeOf(task, seen, (p) => p === readPath && read?.ok === true);
  const last = done.at(-1);
  const exits = done.filter((d) => d.tool === "exit_plan_mode");
  const approved = exits.map((e) => approvedPlan(e.text)).find((p) => p !== null) ?? null;
  if (planning && approved === null) {
    // In plan mode the demo writes a plan and asks for approval; a review sent back revises it point by point.
    if (last?.tool === "exit_plan_mode" && /stay in plan mode/i.test(last.text))
      return { text: "I will wait for your message." };
    const sentBack = last?.tool === "exit_plan_mode" ? reviewOf(last.text) : null;
    const previous = sentBack
      ? (exits
          .map((e) => (e.input as { plan?: string }).plan ?? "")
          .filter(Boolean)
          .at(-1) ?? null)
      : null;
    const plan = demoPlan(task, shape, readPath, previous, sentBack);
    return {
      text: sentBack ? "Revising the plan with your review." : "Here is my plan.",
      toolCalls: [{ name: "exit_plan_mode", input: { plan } }],
    };
  }
  const plan = approved ?? demoPlan(task, shape, readPath, null, null);
  const writes = plannedWrites(task, shape, plan, seen, readPath);
  const written = done.filter((d) => d.tool === "write").length;
  const next = writes[written];
  if (next && tools.includes("write"))
    return {
      text: `Carrying out the plan: writing ${next.path}.`,
      toolCalls: [{ name: "write", input: next }],
    };
  const outcome =
    last && /error|denied|rejected/i.test(last.text)
      ? `The last step did not go through: ${last.text.slice(0, 200)}`
      : "Done.";
  const kind = shape.kind === "other" ? ` This request is not one I can carry out (I can: ${SHAPES_IN_WORDS}).` : "";
  return {
    text: `I explored the workspace for "${task.trim()}" and looked at ${readPath}. ${outcome}${kind} (offline demo model)`,
  };
}

/** The writes that carry out the approved plan: its change, then the notes when a step names them. */
function plannedWrites(
  task: string,
  shape: DemoShape,
  plan: string,
  seen: { path: string; text: string } | null,
  readPath: string,
): { path: string; content: string }[] {
  const title = taskTitle(task);
  const before = (p: string) => (seen && seen.path === p ? seen.text : null);
  const out: { path: string; content: string }[] = [];
  if (shape.kind !== "other") {
    const content = shapeContent(shape, before(shape.file), title);
    out.push({ path: shape.file, content });
  }
  if (shape.kind === "other" || plan.includes(NOTES))
    out.push({ path: NOTES, content: noteFor(task, readPath, plan, before(NOTES)) });
  return out;
}

/** The approved plan's text, from the exit tool's result. */
function approvedPlan(result: string): string | null {
  const at = result.search(/^## Approved Plan/m);
  return at === -1 ? null : result.slice(result.indexOf("\n", at) + 1);
}

export function offlineModel() {
  return localModel("offline", "offline-demo", ({ prompt, tools }) => decideOffline(prompt, tools));
}
