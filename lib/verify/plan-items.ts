/** One thing the plan promised: a step, a task-list entry or a file the plan's files section names. */
export type PlanItem = { id: number; text: string; files: string[]; source: "step" | "task" | "files" };

// A path-like token: has a slash or a file extension (src/a.ts, README.md, package.json).
const PATH =
  /(?:^|[\s`'"(\[])((?:\.{0,2}\/)?[A-Za-z0-9_@.-]+(?:\/[A-Za-z0-9_@.-]+)*\.[A-Za-z0-9]{1,8}|(?:[A-Za-z0-9_@.-]+\/)+[A-Za-z0-9_@.-]+)(?=$|[\s`'",;:.)\]/])/g;

/** Pure: the file paths a line names (normalised: no leading ./, no trailing punctuation). */
export function pathsIn(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(PATH)) {
    const raw = m[1]!.replace(/^\.\//, "").replace(/[.]+$/, "");
    if (!raw || /^\d+(\.\d+)*$/.test(raw) || /^https?:/.test(raw) || raw.includes("..")) continue;
    found.add(raw);
  }
  return [...found];
}

const STEP = /^\s*(?:\d+[.)]|[-*+])\s+(?:\[( |x|X)\]\s+)?(.+)$/;

// Sections whose entries are not steps to carry out: what the plan leaves out, notes, questions, risks.
const NOT_STEPS =
  /\b(out of scope|non[- ]goals?|not (doing|included|in scope)|notes?|questions?|risks?|assumptions?|context|background|alternatives?|references?|open issues)\b/i;

/**
 * Pure: a plan's items from its Markdown: only actionable steps. Numbered and bulleted steps and task-list
 * entries are items; under a heading that mentions files, each entry is a file the plan will touch. Nested
 * bullets belong to their parent step (their paths count for it). Fenced code, questions, and the entries of
 * sections such as "Out of scope", "Notes", "Questions" and "Risks" are not items.
 */
export function planItems(markdown: string): PlanItem[] {
  const items: PlanItem[] = [];
  let inFence = false;
  let filesSection = false;
  let skipping = false;
  let parent: PlanItem | null = null;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const heading = /^\s*#{1,6}\s+(.*)$/.exec(line) ?? /^\s*\*\*([^*]+)\*\*:?\s*$/.exec(line);
    if (heading) {
      filesSection = /\bfiles?\b/i.test(heading[1]!);
      skipping = NOT_STEPS.test(heading[1]!) && !filesSection;
      parent = null;
      continue;
    }
    const step = STEP.exec(line);
    if (!step || skipping) continue;
    const text = step[2]!.trim();
    // A question in the plan is for the reviewer, not a step.
    if (/\?\s*$/.test(text)) continue;
    const indented = /^\s{2,}/.test(line);
    if (indented && parent && !filesSection) {
      parent.files = [...new Set([...parent.files, ...pathsIn(text)])];
      continue;
    }
    const item: PlanItem = {
      id: items.length + 1,
      text,
      files: pathsIn(text),
      source: filesSection ? "files" : step[1] !== undefined ? "task" : "step",
    };
    if (filesSection && item.files.length === 0) continue;
    items.push(item);
    parent = item;
  }
  return items;
}
