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
