import { diffArrays, diffWordsWithSpace } from "diff";

/** A piece of a line: unchanged, or the words added or removed. */
export type WordPart = { text: string; mark?: "add" | "del" };
/** One line of the diff between two versions, with the words that changed marked on changed lines. */
export type WordDiffRow = { kind: "same" | "add" | "del"; parts: WordPart[] };

const whole = (kind: WordDiffRow["kind"], text: string): WordDiffRow => ({ kind, parts: [{ text }] });

/** Adjacent marked words read as one change: a space between two added (or removed) words joins them. */
function merge(parts: WordPart[]): WordPart[] {
  const out: WordPart[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    if (!p) continue;
    const last = out.at(-1);
    const after = parts[i + 1];
    if (last?.mark && !p.mark && /^\s+$/.test(p.text) && after?.mark === last.mark) last.text += p.text;
    else if (last && p.mark && last.mark === p.mark) last.text += p.text;
    else out.push({ ...p });
  }
  return out;
}

/** The words of `from` and `to` that differ, as the removed line's and the added line's parts. */
function pair(from: string, to: string): [WordDiffRow, WordDiffRow] {
  const del: WordPart[] = [];
  const add: WordPart[] = [];
  for (const c of diffWordsWithSpace(from, to)) {
    if (!c.added) del.push(c.removed ? { text: c.value, mark: "del" } : { text: c.value });
    if (!c.removed) add.push(c.added ? { text: c.value, mark: "add" } : { text: c.value });
  }
  return [
    { kind: "del", parts: merge(del) },
    { kind: "add", parts: merge(add) },
  ];
}

/**
 * Pure: the line diff of two versions of a plan, where a run of removed lines followed by added ones is read as
 * those lines changed, pairwise, so the words that changed are marked (as a pull request's diff marks them).
 */
export function wordDiff(before: string, after: string): WordDiffRow[] {
  const rows: WordDiffRow[] = [];
  const changes = diffArrays(before.split("\n"), after.split("\n"));
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i];
    if (!c) continue;
    const next = changes[i + 1];
    if (c.removed && next?.added) {
      const n = Math.max(c.value.length, next.value.length);
      const dels: WordDiffRow[] = [];
      const adds: WordDiffRow[] = [];
      for (let j = 0; j < n; j++) {
        const [from, to] = [c.value[j], next.value[j]];
        if (from !== undefined && to !== undefined) {
          const [d, a] = pair(from, to);
          dels.push(d);
          adds.push(a);
        } else if (from !== undefined) dels.push(whole("del", from));
        else if (to !== undefined) adds.push(whole("add", to));
      }
      rows.push(...dels, ...adds);
      i++;
    } else rows.push(...c.value.map((l) => whole(c.added ? "add" : c.removed ? "del" : "same", l)));
  }
  return rows;
}
