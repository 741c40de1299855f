import { type Act, type Actor, mayAnywhere } from "../../auth/rules/rights";

/**
 * The main navigation for who is looking: nothing for someone signed out (the sign-in and one-time link pages),
 * and for the rest only the pages they can use, by the same rights the pages check (`may`), so no link leads
 * to "Only an owner…".
 */
export type NavLink = { href: string; label: string };

type Needs = { act: Act } | { person: true };

const LINKS: readonly (NavLink & { needs: Needs })[] = [
  { href: "/desk", label: "Desk", needs: { act: "read" } },
  { href: "/webhooks", label: "Webhooks", needs: { act: "read" } },
  { href: "/people", label: "People", needs: { act: "manage" } },
  // Tokens and passkeys belong to a person: the operator and tokens get a page that says so, not a form.
  { href: "/tokens", label: "Tokens", needs: { person: true } },
  { href: "/audit", label: "Audit", needs: { act: "manage" } },
  { href: "/account", label: "Account", needs: { person: true } },
];

export function navLinks(actor: Actor | null): NavLink[] {
  if (actor === null || actor.kind === "agent-token") return [];
  return LINKS.filter(({ needs }) => ("act" in needs ? mayAnywhere(actor, needs.act) : actor.kind === "person")).map(
    ({ href, label }) => ({ href, label }),
  );
}
