import { diffLines } from "diff";

export type SideRow = { left: string | null; right: string | null; kind: "same" | "changed" | "removed" | "added" };

/** Pure: two plan versions as aligned rows (removed lines on the left, added on the right, paired when both). */
export function sideBySide(before: string, after: string): SideRow[] {
  const rows: SideRow[] = [];
  const lines = (v: string) => v.replace(/\n$/, "").split("\n");
  const parts = diffLines(before, after);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (!part.added && !part.removed) {
      for (const l of lines(part.value)) rows.push({ left: l, right: l, kind: "same" });
      continue;
    }
    const next = parts[i + 1];
    if (part.removed && next?.added) {
      const left = lines(part.value);
      const right = lines(next.value);
      for (let j = 0; j < Math.max(left.length, right.length); j++) {
        const l = left[j] ?? null;
        const r = right[j] ?? null;
        rows.push({ left: l, right: r, kind: l !== null && r !== null ? "changed" : l !== null ? "removed" : "added" });
      }
      i++;
      continue;
    }
    for (const l of lines(part.value))
      rows.push(part.added ? { left: null, right: l, kind: "added" } : { left: l, right: null, kind: "removed" });
  }
  return rows;
}

/** A shown row: a diff row, or a run of unchanged rows folded to its length. */
export type ShownRow = SideRow | { kind: "skipped"; count: number };

/**
 * Pure: long runs of unchanged rows folded to their count, keeping `context` unchanged rows beside each change, so
 * a diff's size follows what changed, not the plan's length. A run of one is shown: folding it saves nothing.
 */
export function foldUnchanged(rows: readonly SideRow[], context = 2): ShownRow[] {
  const near = rows.map(() => false);
  rows.forEach((r, i) => {
    if (r.kind === "same") return;
    for (let j = Math.max(0, i - context); j <= Math.min(rows.length - 1, i + context); j++) near[j] = true;
  });
  const out: ShownRow[] = [];
  for (let i = 0; i < rows.length; ) {
    let end = i;
    while (end < rows.length && !near[end]) end++;
    if (end - i > 1) out.push({ kind: "skipped", count: end - i });
    else if (end > i) out.push(rows[i]!);
    if (end < rows.length) out.push(rows[end]!);
    i = end + 1;
  }
  return out;
}
