"use client";

import dynamic from "next/dynamic";

/**
 * Markdown rendered in the browser, for timeline pages loaded after the first render. The Markdown pipeline
 * is a large bundle: the server renders the first page, so it is fetched only when an earlier page is opened.
 */
export const LazyMarkdown = dynamic(() => import("./plan-markdown").then((m) => m.PlanMarkdown), {
  loading: () => <p className="text-xs text-zinc-500">…</p>,
});
