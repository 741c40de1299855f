import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import { unified } from "unified";

/** A piece of the plan that is rendered, and commented on, as one: a heading, a paragraph, a list item, a table. */
export type PlanBlock = { lineStart: number; lineEnd: number; source: string };

type Node = { type: string; position?: { start: { line: number }; end: { line: number } }; children?: Node[] };

const parser = unified().use(remarkParse).use(remarkGfm);

/**
 * Pure: the plan cut into blocks by its source lines, so each renders on its own with comments beside it. A
 * list is cut into its items (an ordered item keeps its number in its source, so it renders with it).
 */
export function planBlocks(markdown: string): PlanBlock[] {
  const lines = markdown.split("\n");
  const tree = parser.parse(markdown) as Node;
  const spans = (tree.children ?? []).flatMap((n) => (n.type === "list" ? (n.children ?? []) : [n]));
  return spans.flatMap((n) => {
    if (!n.position) return [];
    const { start, end } = n.position;
    return [{ lineStart: start.line, lineEnd: end.line, source: lines.slice(start.line - 1, end.line).join("\n") }];
  });
}
