import { z, type ZodType } from "zod";

/*
 * A keyset page's cursor: where the page before ended (its last row's sort key and id), opaque to the caller so
 * that a list may change its key without changing its API. base64url keeps it safe in a query string unescaped.
 */

export function encodeCursor(position: object): string {
  return Buffer.from(JSON.stringify(position)).toString("base64url");
}

/**
 * A query parameter holding a cursor, decoded and checked against `shape`: a cursor this server never gave (cut,
 * edited, from another list) is a 400 naming the parameter, never a first page or a 500.
 */
export function cursorParam<T>(shape: ZodType<T>) {
  return z
    .string()
    .min(1)
    .max(400)
    .transform((raw, ctx): T => {
      let decoded: unknown;
      try {
        decoded = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
      } catch {
        decoded = undefined;
      }
      const checked = shape.safeParse(decoded);
      if (checked.success) return checked.data;
      ctx.addIssue({ code: "custom", message: "not a cursor this list gave (use its `next`)" });
      return z.NEVER;
    });
}

/*
 * A cursor's fields, bounded to what the database takes: a decoded cursor is the caller's text, and an id with a NUL,
 * a time past the last valid Date or an integer past a 4-byte column would be a 500 there, not a 400 here.
 */
/** A row's time in ms: a valid Date. */
export const cursorTime = z.number().int().nonnegative().max(8.64e15);
/** A 4-byte integer column's value (a version, a seq). */
export const cursorInt = z
  .number()
  .int()
  .nonnegative()
  .max(2 ** 31 - 1);
/** An id as the server makes them (lib/id.ts). */
export const cursorId = z.string().regex(/^[A-Za-z0-9_-]{1,100}$/);

/** The page's limit: a whole number from 1 to `max`, `fallback` when not given. */
export const limitParam = (fallback: number, max = 200) => z.coerce.number().int().min(1).max(max).default(fallback);

/**
 * Pure: a page of `limit` out of the `limit + 1` rows a keyset read returned (the extra one only says that a next
 * page exists), and the cursor of that next page (from the page's last row), else null.
 */
export function keysetPage<R>(
  rows: readonly R[],
  limit: number,
  cursorOf: (last: R) => object,
): { page: R[]; next: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, next: rows.length > limit && last !== undefined ? encodeCursor(cursorOf(last)) : null };
}
