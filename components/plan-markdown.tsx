import ReactMarkdown from "react-markdown";
import rehypeSanitize from "rehype-sanitize";
import remarkGfm from "remark-gfm";

/**
 * Plan text as GFM (tables, task lists, code). Raw HTML is dropped and the result sanitised, so a plan can
 * never run a script, load an image handler or carry a javascript: link.
 */
export function PlanMarkdown({ markdown }: { markdown: string }) {
  return (
    <div data-testid="plan-markdown" className="prose prose-sm max-w-none dark:prose-invert [&_table]:border [&_td]:border [&_td]:px-2 [&_th]:border [&_th]:px-2">
      <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeSanitize]} skipHtml>
        {markdown}
      </ReactMarkdown>
    </div>
  );
}
