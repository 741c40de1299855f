import { type DemoShape, NOTES, SHAPES_IN_WORDS, shapeStep } from "./demo-shapes";

/** What a review sent back: the overall feedback and each line comment (quote and words), from the exit tool's error. */
export function reviewOf(result: string): { feedback: string | null; comments: { quote: string; body: string }[] } {
  const feedback =
    /Their feedback:\n([\s\S]*?)(?:\n\nComments on lines of the plan|\n\nOn earlier comments|\nRevise the plan file|$)/
      .exec(result)?.[1]
      ?.trim() || null;
  const comments: { quote: string; body: string }[] = [];
  for (const m of result.matchAll(
    /^- Lines? [\d–]+:\n((?: {2}> .*\n)+) {2}([\s\S]*?)(?=\n- Lines? |\n\nOn earlier comments|\nRevise the plan file|$)/gm,
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

export const taskTitle = (task: string) => task.trim().split("\n")[0]?.slice(0, 100) || "look after the workspace";

/**
 * The demo's plan, built from the request and what it read: the one change its kind of request makes (or, for
 * a request of no kind it knows, a note of the task in PLANGATE-NOTES.md, saying so), the file it read as
 * context, and on a revision one step per point of the review, with each commented line amended by its comment.
 */
export function demoPlan(
  task: string,
  shape: DemoShape,
  read: string,
  previous: string | null,
  review: ReturnType<typeof reviewOf> | null,
): string {
  const title = taskTitle(task);
  let steps = [
    `1. ${shapeStep(shape, title)}`,
    ...(shape.kind === "other" ? [`2. List in ${NOTES} what was found in the files read`] : []),
  ];
  if (previous) steps = previous.split("\n").filter((l) => /^\d+\. /.test(l));
  for (const c of review?.comments ?? [])
    steps = steps.map((l) => (c.quote.split("\n").includes(l) ? `${l} (review: ${c.body})` : l));
  if (review?.feedback)
    steps.push(
      `${steps.length + 1}. Address the review in ${NOTES}: ${review.feedback.replace(/\s+/g, " ").slice(0, 300)}`,
    );
  const files = [...new Set([shape.file, ...(steps.some((s) => s.includes(NOTES)) ? [NOTES] : [])])];
  return [
    `# Plan: ${title}`,
    "",
    "## Context",
    `- Read \`${read}\` for the task's words.`,
    ...(shape.kind === "other"
      ? [
          `- The offline demo model carries out only these kinds of request: ${SHAPES_IN_WORDS}. This one is none of them, so the plan records it in ${NOTES}; a real model (PLANGATE_MODEL) can do the rest.`,
        ]
      : []),
    "",
    "## Steps",
    ...steps,
    "",
    "## Files",
    ...files.map((f) => `- ${f}`),
    "",
  ].join("\n");
}

/** The note that carries out the plan: every step's words, so the check after the turn finds each one done. */
export function noteFor(task: string, read: string, plan: string, before: string | null): string {
  const steps = plan.split("\n").filter((l) => /^\d+\. /.test(l));
  const note = [
    "# Notes from the offline demo model",
    "",
    `Task: ${task.trim() || "(none)"}`,
    "",
    `Files read: ${read}`,
    "",
    "## Done",
    ...steps.map((l) => `- ${l.replace(/^\d+\. /, "")}`),
    "",
  ].join("\n");
  // Notes from an earlier session are kept: this one's follow, so the file always changes.
  return before ? `${before.trimEnd()}\n\n---\n\n${note}` : note;
}
