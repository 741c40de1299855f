import { describe, expect, it } from "vitest";
import { auditCsv, type AuditRow } from "./audit-csv";

const row = (over: Partial<AuditRow>): AuditRow => ({
  at: new Date("2026-12-03T10:00:00.000Z"),
  name: "Ada",
  credential: "session",
  kind: "review.approved",
  sessionId: "ses_1",
  workspace: "/srv/app",
  subject: "rev_1",
  address: null,
  detail: {},
  ...over,
});

describe("auditCsv", () => {
  it("writes a header and one row per act", () => {
    expect(auditCsv([row({})])).toBe(
      "at,who,credential,kind,session,workspace,subject,address,detail\r\n2026-12-03T10:00:00.000Z,Ada,session,review.approved,ses_1,/srv/app,rev_1,,\r\n",
    );
  });
  it.each([
    ['Ada "the reviewer", PhD', '"Ada ""the reviewer"", PhD"'],
    ["line\nbreak", '"line\nbreak"'],
    ['=HYPERLINK("http://x")', '"\'=HYPERLINK(""http://x"")"'],
    ["+1", "'+1"],
    ["-2+3", "'-2+3"],
    ["@SUM(A1)", "'@SUM(A1)"],
  ])("a name %j is one cell %j that no spreadsheet runs", (name, written) => {
    const line = auditCsv([row({ name })]).split("\r\n")[1] ?? "";
    expect(line.startsWith(`2026-12-03T10:00:00.000Z,${written},session,`)).toBe(true);
  });
  it("keeps the detail as JSON in one cell", () => {
    expect(auditCsv([row({ detail: { role: "owner", root: "/" } })])).toContain(
      ',"{""role"":""owner"",""root"":""/""}"',
    );
  });
});
