import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import { unified } from "unified";

/** One thing the plan promised: a step, a task-list entry or a file the plan's files section names. */
export type PlanItem = { id: number; text: string; files: string[]; source: "step" | "task" | "files" };

// A path-like token: has a slash or a file extension (src/a.ts, README.md, package.json).
const PATH =
  /(?:^|[\s`'"([])((?:\.{0,2}\/)?[A-Za-z0-9_@.-]+(?:\/[A-Za-z0-9_@.-]+)*\.[A-Za-z0-9]{1,8}|(?:[A-Za-z0-9_@.-]+\/)+[A-Za-z0-9_@.-]+)(?=$|[\s`'",;:.)\]/])/g;

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

// Sections whose entries are not steps to carry out: what the plan leaves out, notes, questions, risks.
const NOT_STEPS =
  /\b(out of scope|non[- ]goals?|not (doing|included|in scope)|notes?|questions?|risks?|assumptions?|context|background|alternatives?|references?|open issues)\b/i;

// CommonMark with GitHub's task lists, as the plan page renders it (react-markdown with remark-gfm).
const parser = unified().use(remarkParse).use(remarkGfm);
type Block = ReturnType<typeof parser.parse>["children"][number];
type List = Extract<Block, { type: "list" }>;
type ListItem = List["children"][number];
type Positioned = { position?: { start: { offset?: number }; end: { offset?: number } } };

/**
 * Pure: a plan's items from its Markdown: only actionable steps. Numbered and bulleted steps and task-list
 * entries of the plan's top-level lists are items; under a heading that mentions files, each entry is a file
 * the plan will touch. Nested lists and further paragraphs belong to their step (their paths count for it).
 * Code (fenced or indented), quotes, HTML, questions, and the entries of sections such as "Out of scope",
 * "Notes", "Questions" and "Risks" are not items.
 */
export function planItems(markdown: string): PlanItem[] {
  const source = (node: Positioned) => markdown.slice(node.position?.start.offset ?? 0, node.position?.end.offset ?? 0);
  // The item's own words: its first paragraph as written (a task's checkbox is not part of it), on one line.
  const ownText = (item: ListItem) => {
    const first = item.children[0];
    return first?.type === "paragraph"
      ? source(first)
          .replace(/\s*\n\s*/g, " ")
          .trim()
      : "";
  };
  // A question in the plan is for the reviewer, not a step.
  const isQuestion = (text: string) => /\?\s*$/.test(text);

  /** The paths of what an item holds below its own words: nested entries and further paragraphs, not code. */
  const innerPaths = (item: ListItem, found: Set<string>) => {
    for (const child of item.children.slice(1)) {
      if (child.type === "paragraph") for (const p of pathsIn(source(child))) found.add(p);
      if (child.type !== "list") continue;
      for (const nested of child.children) {
        const text = ownText(nested);
        if (text && !isQuestion(text)) for (const p of pathsIn(text)) found.add(p);
        innerPaths(nested, found);
      }
    }
  };

  const items: PlanItem[] = [];
  const push = (text: string, files: string[], kind: PlanItem["source"]) =>
    items.push({ id: items.length + 1, text, files, source: kind });
  /** In a files section every entry, nested or not, is a file the plan names. */
  const fileEntries = (list: List) => {
    for (const entry of list.children) {
      const text = ownText(entry);
      const files = pathsIn(text);
      if (text && !isQuestion(text) && files.length > 0) push(text, files, "files");
      for (const child of entry.children) if (child.type === "list") fileEntries(child);
    }
  };

  let filesSection = false;
  let skipping = false;
  for (const block of parser.parse(markdown).children) {
    const title =
      block.type === "heading"
        ? plain(block)
        : block.type === "paragraph"
          ? /^\s*\*\*([^*]+)\*\*:?\s*$/.exec(source(block))?.[1]
          : undefined;
    if (title !== undefined) {
      filesSection = /\bfiles?\b/i.test(title);
      skipping = NOT_STEPS.test(title) && !filesSection;
      continue;
    }
    if (block.type !== "list" || skipping) continue;
    if (filesSection) {
      fileEntries(block);
      continue;
    }
    for (const entry of block.children) {
      const text = ownText(entry);
      if (!text || isQuestion(text)) continue;
      const files = new Set(pathsIn(text));
      innerPaths(entry, files);
      push(text, [...files], typeof entry.checked === "boolean" ? "task" : "step");
    }
  }
  return items;
}

/** A node's words without their Markdown (a heading's, to name its section). */
function plain(node: { value?: unknown; children?: unknown[] }): string {
  if (typeof node.value === "string") return node.value;
  return (node.children ?? []).map((c) => plain(c as { value?: unknown; children?: unknown[] })).join("");
}
