import crypto from "node:crypto";

// db:copy's values: which tables it copies in which order, how a stored value reads on either engine, and the
// digests both sides are compared by. Plain functions, tested as tables beside copy-database.ts.

// Primary keys that are not `id`.
const KEYS: Record<string, readonly string[]> = {
  SessionEvent: ["sessionId", "seq"],
  Membership: ["userId", "root"],
  TeamLead: ["teamId", "userId"],
  Setting: ["key"],
  WorkspaceTrust: ["workspace"],
  ReviewPolicy: ["path"],
  ReviewApproval: ["reviewId", "userId"],
  RateLimit: ["key"],
  NotifyPreference: ["userId"],
  SlackLink: ["slackUser"],
  SeenRequest: ["key"],
};

/** Every table of prisma/schema.prisma, parents before children, with the primary key its keyset pages walk. */
export const TABLES: readonly { name: string; key: readonly string[] }[] = [
  ...["Team", "Session", "SessionEvent", "ModeChange", "Plan", "PlanVersion", "PlanComment", "Review"],
  ...["ReviewApproval", "ReviewPolicy"],
  ...["PermissionRequest", "PermissionGrant", "MailboxMessage", "Setting", "Verification"],
  ...["EventOutbox", "WebhookDelivery", "WebhookAttempt", "WorkspaceTrust"],
  ...["User", "AuthSession", "AuthAccount", "AuthVerification", "Passkey", "ApiToken", "Membership"],
  ...["OneTimeLink", "AuditEntry", "TeamLead", "RateLimit"],
  ...["Notice", "NotifyPreference", "SlackLink", "SeenRequest", "PushSubscription"],
].map((name) => ({ name, key: KEYS[name] ?? ["id"] }));

export type Kind = "text" | "integer" | "boolean" | "timestamp";
export type Column = { name: string; kind: Kind };
export type Value = string | number | boolean | Date | null;

/** The copy cannot start (bad URLs, a missing source, a target that is not empty, another schema). */
export class CopyRefused extends Error {
  override name = "CopyRefused";
}

/** A URL without its password, for messages. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, "//");
}

export function kindOf(pgType: string, where: string): Kind {
  if (pgType === "text" || pgType === "integer" || pgType === "boolean") return pgType;
  // Milliseconds since the epoch (RateLimit.windowEnd): a safe integer, compared and copied as one.
  if (pgType === "bigint") return "integer";
  if (pgType.startsWith("timestamp")) return "timestamp";
  throw new CopyRefused(`${where}: column type ${pgType} is not one db:copy knows`);
}

/** SQLite's CURRENT_TIMESTAMP text ("2026-01-02 03:04:05") is UTC; Prisma writes ISO 8601 or epoch milliseconds. */
function toDate(v: unknown): Date {
  if (v instanceof Date) return v;
  if (typeof v === "number" || typeof v === "bigint") return new Date(Number(v));
  const s = String(v);
  return new Date(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d+)?$/.test(s) ? `${s.replace(" ", "T")}Z` : s);
}

/** One stored value as the target column takes it (and as both sides are compared). */
export function toValue(kind: Kind, v: unknown, where: string): Value {
  if (v === null || v === undefined) return null;
  const bad = () => new Error(`${where}: ${JSON.stringify(String(v)).slice(0, 80)} is not a valid ${kind}`);
  switch (kind) {
    case "timestamp": {
      const d = toDate(v);
      if (Number.isNaN(d.getTime())) throw bad();
      return d;
    }
    case "boolean":
      if (v === true || v === 1 || v === "1" || v === "true") return true;
      if (v === false || v === 0 || v === "0" || v === "false") return false;
      throw bad();
    case "integer": {
      const n = Number(v);
      if (!Number.isSafeInteger(n)) throw bad();
      return n;
    }
    case "text":
      if (typeof v !== "string") throw bad();
      return v;
  }
}

/** An order-independent digest of a table: the sum of its rows' hashes (mod 2^128). */
export function rowHash(values: readonly Value[]): bigint {
  return BigInt(`0x${crypto.createHash("sha256").update(JSON.stringify(values)).digest("hex").slice(0, 32)}`);
}
export const MOD = 1n << 128n;

/** JSON with sorted keys: two states are equal when this is. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, x: unknown) =>
    x && typeof x === "object" && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : x,
  );
}
