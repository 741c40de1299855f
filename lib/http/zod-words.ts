import type { ZodError } from "zod";

type Issue = ZodError["issues"][number];

const count = (n: number | bigint, one: string, many: string) =>
  `${Number(n).toLocaleString("en")} ${Number(n) === 1 ? one : many}`;

const UNIT: Record<string, [string, string]> = {
  string: ["character", "characters"],
  array: ["item", "items"],
  set: ["item", "items"],
  file: ["byte", "bytes"],
};

/** Pure: one problem with a request, in words; size limits say the limit ("at most 20,000 characters"). */
export function issueWords(i: Issue): string {
  const where = i.path.length ? i.path.join(".") : "body";
  const unit = "origin" in i && typeof i.origin === "string" ? UNIT[i.origin] : undefined;
  if (i.code === "too_big" && unit) return `${where}: at most ${count(i.maximum, ...unit)}`;
  if (i.code === "too_small" && unit)
    return Number(i.minimum) === 1 && i.origin === "string"
      ? `${where}: must not be empty`
      : `${where}: at least ${count(i.minimum, ...unit)}`;
  if (i.code === "too_big") return `${where}: at most ${Number(i.maximum).toLocaleString("en")}`;
  if (i.code === "too_small") return `${where}: at least ${Number(i.minimum).toLocaleString("en")}`;
  return `${where}: ${i.message}`;
}

export function zodMessage(error: ZodError): string {
  return error.issues.map(issueWords).join("; ");
}
