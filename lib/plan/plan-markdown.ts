/** A plan is non-empty markdown whose first non-blank line is a heading. Returns the problem, or null. */
export function planProblem(markdown: string): string | null {
  const first = markdown.split("\n").find((l) => l.trim().length > 0);
  if (!first) return "The plan file is empty: write the plan (markdown starting with a heading) first.";
  if (!/^#{1,6}\s+\S/.test(first.trim()))
    return `The plan must start with a markdown heading (e.g. "# Plan: …"); it starts with: ${first.slice(0, 80)}`;
  return null;
}
