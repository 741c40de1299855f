import { expect } from "vitest";
import type { Role } from "../../lib/auth/rules/rights";
import type { Api } from "./api";
import { signedInCookie } from "./people";

/** A test's people and review policy, on whichever test server `api()` is now (a case may replace it). */
export function policyKit(api: () => Api) {
  let people = 0;
  const person = async (role: Role = "reviewer", email = `p${++people}@example.com`) => ({
    email,
    ...(await signedInCookie(api().t.db, email, [{ root: api().workspace, role }])),
  });
  const setPolicy = async (policy: Record<string, unknown>) => {
    const res = await api().call("PUT", "/api/policies", {
      workspace: api().workspace,
      approvals: 1,
      allowSelfApproval: true,
      paths: [],
      ...policy,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  return { person, setPolicy };
}
