import ReactMarkdown, { type Components } from "react-markdown";
import rehypeSanitize from "rehype-sanitize";
import remarkGfm from "remark-gfm";

/**
 * Markdown as GFM (tables, task lists, code). Raw HTML is dropped and the result sanitised, so a plan or a
 * message can never run a script, load an image handler or carry a javascript: link.
 */
// GFM task-list boxes are read-only; they need a name for screen readers.
const components: Components = {
  input: ({ node: _node, ...props }) =>
    props.type === "checkbox" ? (
      <input {...props} aria-label={props.checked ? "Done" : "Not done"} />
    ) : (
      <input {...props} />
    ),
};

export function PlanMarkdown({
  markdown,
  testId = "plan-markdown",
  bare = false,
}: {
  markdown: string;
  testId?: string;
  /** Without its wrapper: one block of a plan, placed by the review card. */
  bare?: boolean;
}) {
  const md = (
    <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeSanitize]} components={components} skipHtml>
      {markdown}
    </ReactMarkdown>
  );
  if (bare) return md;
  return (
    <div data-testid={testId} className="markdown">
      {md}
    </div>
  );
}
