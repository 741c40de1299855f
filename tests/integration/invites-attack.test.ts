import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { completeLink } from "../../lib/auth/complete-link";
import { findPerson } from "../../lib/db/people/people";
import { testApi, type Api } from "../helpers/api";
import { signedInCookie, TEST_PASSWORD } from "../helpers/people";

// Issue 42: pending invites are listed (who, role, expiry; never the link, whose secret is not kept) and an owner
// revokes one, after which its link refuses. The attacks: someone who does not own an invite's root lists or
// revokes it; a revoked link is used anyway.
let api: Api;
beforeEach(() => {
  api = testApi();
});
afterEach(async () => {
  await api?.close();
});

const secretOf = (url: string) => url.split("/link/")[1] ?? "";
const join = (url: string, email: string) =>
  completeLink(
    api.t.db,
    secretOf(url),
    { name: "Newt", email, password: TEST_PASSWORD },
    new Headers({ host: "localhost:3000" }),
  );

describe("pending invites", () => {
  it("are listed to owners of their root only, revocable by them, and a revoked link refuses", async () => {
    const ownerA = await signedInCookie(api.t.db, "oa@example.com", [{ root: "/srv/a", role: "owner" }]);
    const ownerB = await signedInCookie(api.t.db, "ob@example.com", [{ root: "/srv/b", role: "owner" }]);
    const reviewer = await signedInCookie(api.t.db, "ra@example.com", [{ root: "/srv/a", role: "reviewer" }]);
    const made = await api.call("POST", "/api/invites", { role: "reviewer", root: "/srv/a", email: "n@x.dev" }, ownerA);
    expect(made.status).toBe(201);
    const used = await api.call("POST", "/api/invites", { role: "viewer", root: "/srv/a" }, ownerA);
    expect((await join(used.body.url as string, "used@x.dev")).status).toBe(200);

    const listA = await api.call("GET", "/api/invites", undefined, ownerA);
    expect(listA.status).toBe(200);
    expect(listA.body.invites).toMatchObject([
      { email: "n@x.dev", role: "reviewer", root: "/srv/a", createdByName: "oa", expiresAt: made.body.expiresAt },
    ]);
    // The list never carries the link (nor its secret).
    expect(JSON.stringify(listA.body)).not.toContain(secretOf(made.body.url as string));
    const id = listA.body.invites[0].id as string;
    expect((await api.call("GET", "/api/invites", undefined, ownerB)).body.invites).toEqual([]);
    expect((await api.call("GET", "/api/invites", undefined, reviewer)).status).toBe(403);

    // Another team's owner and a reviewer cannot revoke it; the link still works for its person after their tries.
    expect((await api.call("DELETE", `/api/invites/${id}`, undefined, ownerB)).status).toBe(404);
    expect((await api.call("DELETE", `/api/invites/${id}`, undefined, reviewer)).status).toBe(403);
    expect((await api.call("DELETE", "/api/invites/no such id", undefined, ownerA)).status).toBe(400);
    expect(await api.t.db.auditEntry.count({ where: { kind: "person.invite.revoked" } })).toBe(0);

    const revoked = await api.call("DELETE", `/api/invites/${id}`, undefined, ownerA);
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expect((await api.call("GET", "/api/invites", undefined, ownerA)).body.invites).toEqual([]);
    await expect(join(made.body.url as string, "n@x.dev")).rejects.toMatchObject({ code: "not_found" });
    expect(await findPerson(api.t.db, { email: "n@x.dev" })).toBeNull();
    expect((await api.call("DELETE", `/api/invites/${id}`, undefined, ownerA)).status).toBe(404);
    const audit = await api.t.db.auditEntry.findMany({ where: { kind: "person.invite.revoked" } });
    expect(audit.map((a) => [a.name, a.subject])).toEqual([["oa", "n@x.dev"]]);
  });

  it("an invite with no root (an old row: the whole server's) is no other owner's to revoke, and says nothing of itself", async () => {
    const ownerA = await signedInCookie(api.t.db, "oa@example.com", [{ root: "/srv/a", role: "owner" }]);
    const admin = await signedInCookie(api.t.db, "ad@example.com", [{ root: "/", role: "owner" }]);
    const made = await api.call("POST", "/api/invites", { role: "reviewer", root: "/", email: "w@x.dev" }, admin);
    expect(made.status).toBe(201);
    const [row] = await api.t.db.oneTimeLink.findMany({ where: { purpose: "invite", email: "w@x.dev" } });
    await api.t.db.oneTimeLink.update({ where: { id: row!.id }, data: { root: null } });
    // The attack: an owner of /srv/a revokes it. Refused as if it did not exist (404, not 403), and it stays.
    const tried = await api.call("DELETE", `/api/invites/${row!.id}`, undefined, ownerA);
    expect(tried.status).toBe(404);
    expect(await api.t.db.oneTimeLink.count({ where: { id: row!.id } })).toBe(1);
    expect((await api.call("DELETE", `/api/invites/${row!.id}`, undefined, admin)).status).toBe(200);
  });

  it("a root spelled with . or .. (or //) is refused by name, and no invite is made", async () => {
    const owner = await signedInCookie(api.t.db, "oa@example.com", [{ root: "/srv/a", role: "owner" }]);
    for (const root of ["/srv/a/../b", "/srv/a/./x", "/srv/a//x"]) {
      const res = await api.call("POST", "/api/invites", { role: "owner", root }, owner);
      expect(res.status, root).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(/without (\. or \.\.|an empty part)/);
    }
    expect(await api.t.db.oneTimeLink.count({ where: { purpose: "invite" } })).toBe(0);
  });

  it("a role stored under such a root before can still be taken away, but not given again", async () => {
    const admin = await signedInCookie(api.t.db, "ad@example.com", [{ root: "/", role: "owner" }]);
    const old = await signedInCookie(api.t.db, "old@example.com", [{ root: "/srv/a/../b", role: "reviewer" }]);
    const give = await api.call(
      "POST",
      `/api/people/${old.userId}/role`,
      { root: "/srv/a/../c", role: "owner" },
      admin,
    );
    expect(give.status).toBe(400);
    expect(JSON.stringify(give.body)).toContain("without . or ..");
    const take = await api.call("POST", `/api/people/${old.userId}/role`, { root: "/srv/a/../b", role: null }, admin);
    expect(take.status, JSON.stringify(take.body)).toBe(200);
    expect(await api.t.db.membership.count({ where: { userId: old.userId } })).toBe(0);
  });
});
