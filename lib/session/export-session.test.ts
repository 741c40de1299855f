import { describe, expect, it } from "vitest";
import { exportFileName, localTime } from "./export-session";

describe("exports read in the reader's terms", () => {
  it.each([
    ["2026-11-30T23:51:49Z", "UTC", "2026-11-30 23:51:49 (UTC)"],
    ["2026-11-30T23:51:49Z", "Europe/Berlin", "2026-12-01 00:51:49 (Europe/Berlin)"],
    ["2026-07-01T12:00:00Z", "America/New_York", "2026-07-01 08:00:00 (America/New_York)"],
  ])("%s in %s → %s", (at, tz, want) => {
    expect(localTime(at, tz)).toBe(want);
  });

  it.each([
    ["Add pagination to the API", "add-pagination-to-the-api-2026-11-30.md"],
    ["Réglage: «chaos» / ../etc", "reglage-chaos-etc-2026-11-30.md"],
    ["!!!", "session-2026-11-30.md"],
  ])("%j → %s", (title, want) => {
    expect(exportFileName(title, "md", new Date("2026-11-30T10:00:00Z"))).toBe(want);
  });
});
