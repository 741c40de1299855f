import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { completeLink } from "../../lib/auth/complete-link";
import { membershipsOf, findPerson } from "../../lib/db/people/people";
import { authFor } from "../../lib/auth/better-auth";
import { testApi, type Api } from "../helpers/api";
import { signedInCookie, TEST_PASSWORD } from "../helpers/people";

// Issue 26: owners manage people over the roots they own, and nothing above them. The attacks: a member makes an
// invite, an owner of one team's folder invites someone over all of them or locks out a person another team
// relies on, an owner reads acts in a workspace that is not theirs. Each is refused and leaves nothing behind.
let api: Api;
beforeEach(() => {
  api = testApi();
});
afterEach(async () => {
  await api?.close();
});

const links = () => api.t.db.oneTimeLink.count();
const secretOf = (url: string) => url.split("/link/")[1] ?? "";

describe("people, invites and the audit log, by the roots an owner owns", () => {
  it("a member cannot invite; an owner of /srv/a cannot invite over / but can under /srv/a, and the link works once", async () => {
    const member = await signedInCookie(api.t.db, "mo@example.com", [{ root: "/srv/a", role: "member" }]);
    const owner = await signedInCookie(api.t.db, "oa@example.com", [{ root: "/srv/a", role: "owner" }]);
    const before = await links();
    const byMember = await api.call("POST", "/api/invites", { role: "viewer", root: "/srv/a" }, member);
    expect(byMember.status).toBe(403);
    const above = await api.call("POST", "/api/invites", { role: "owner", root: "/" }, owner);
    expect(above.status).toBe(403);
    expect(await links()).toBe(before);
    expect(await api.t.db.auditEntry.count()).toBe(0);

    const made = await api.call("POST", "/api/invites", { role: "reviewer", root: "/srv/a/app/" }, owner);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ role: "reviewer", root: "/srv/a/app" });
    const joined = await completeLink(
      api.t.db,
      secretOf(made.body.url as string),
      { name: "Newt", email: "newt@example.com", password: TEST_PASSWORD },
      new Headers({ host: "localhost:3000" }),
    );
    expect(joined.status).toBe(200);
    const newt = await findPerson(api.t.db, { email: "newt@example.com" });
    expect(await membershipsOf(api.t.db, newt?.id ?? "")).toEqual([{ root: "/srv/a/app", role: "reviewer" }]);
    await expect(
      completeLink(
        api.t.db,
        secretOf(made.body.url as string),
        { name: "Again", email: "again@example.com", password: TEST_PASSWORD },
        new Headers({ host: "localhost:3000" }),
      ),
    ).rejects.toMatchObject({ code: "not_found" });
    expect(await findPerson(api.t.db, { email: "again@example.com" })).toBeNull();
    const kinds = (await api.t.db.auditEntry.findMany({ orderBy: { at: "asc" } })).map((a) => [a.kind, a.name]);
    expect(kinds).toEqual([
      ["person.invited", "oa"],
      ["link.invite", "Newt"],
    ]);
  });

  it("an owner of one folder cannot deactivate a person who also works in another; an owner of both can", async () => {
    const owner = await signedInCookie(api.t.db, "oa@example.com", [{ root: "/srv/a", role: "owner" }]);
    const both = await signedInCookie(api.t.db, "ob@example.com", [{ root: "/srv", role: "owner" }]);
    const shared = await signedInCookie(api.t.db, "sh@example.com", [
      { root: "/srv/a", role: "reviewer" },
      { root: "/srv/b", role: "reviewer" },
    ]);
    const refused = await api.call("POST", `/api/people/${shared.userId}/deactivate`, {}, owner);
    expect(refused.status).toBe(403);
    expect(await authFor(api.t.db).api.getSession({ headers: new Headers({ cookie: shared.cookie }) })).not.toBeNull();
    const roleAbove = await api.call(
      "POST",
      `/api/people/${shared.userId}/role`,
      { root: "/srv/b", role: null },
      owner,
    );
    expect(roleAbove.status).toBe(403);
    expect(await membershipsOf(api.t.db, shared.userId)).toHaveLength(2);

    const done = await api.call("POST", `/api/people/${shared.userId}/deactivate`, {}, both);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(await authFor(api.t.db).api.getSession({ headers: new Headers({ cookie: shared.cookie }) })).toBeNull();
    expect((await api.call("GET", "/api/sessions", undefined, shared)).status).toBe(401);
  });

  it("the audit log shows an owner only the acts under the roots they own, as JSON and as CSV", async () => {
    const ownerA = await signedInCookie(api.t.db, "oa@example.com", [{ root: "/srv/a", role: "owner" }]);
    const ownerB = await signedInCookie(api.t.db, "ob@example.com", [{ root: "/srv/b", role: "owner" }]);
    expect((await api.call("POST", "/api/invites", { role: "viewer", root: "/srv/a" }, ownerA)).status).toBe(201);
    expect((await api.call("POST", "/api/invites", { role: "viewer", root: "/srv/b" }, ownerB)).status).toBe(201);
    const asA = await api.call("GET", "/api/audit", undefined, ownerA);
    expect(asA.body.entries.map((e: { workspace: string }) => e.workspace)).toEqual(["/srv/a"]);
    const all = await api.call("GET", "/api/audit?kind=person.invited");
    expect(all.body.entries).toHaveLength(2);
    const csv = await api.call("GET", "/api/audit?format=csv", undefined, ownerB);
    expect(csv.status).toBe(200);
    expect(csv.body).toMatch(/^at,who,credential,kind,session,workspace,subject,address,detail\r\n/);
    expect(csv.body).toContain("person.invited");
    expect(csv.body).toContain("/srv/b");
    expect(csv.body).not.toContain("/srv/a");
    const member = await signedInCookie(api.t.db, "m@example.com", [{ root: "/", role: "reviewer" }]);
    expect((await api.call("GET", "/api/audit", undefined, member)).status).toBe(403);
    const people = await api.call("GET", "/api/people", undefined, ownerA);
    expect(people.body.people.map((p: { email: string }) => p.email)).toEqual(["oa@example.com"]);
  });
});
