import Link from "next/link";
import type { NavLink } from "@/lib/ui/views/nav-links";
import { SignOutButton } from "./sign-out-button";

/**
 * The header: the name alone for someone signed out; else the pages they can use (`links`, from navLinks) and
 * Sign out.
 */
export function AppNav({ signedIn, links }: { signedIn: boolean; links: readonly NavLink[] }) {
  return (
    <nav
      className="mx-auto flex max-w-5xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3"
      aria-label="Main"
      data-testid="main-nav"
      data-signed-in={signedIn ? "yes" : "no"}
    >
      {signedIn ? (
        <Link href="/" className="font-semibold tracking-tight" data-testid="nav-home">
          Plangate
        </Link>
      ) : (
        <span className="font-semibold tracking-tight">Plangate</span>
      )}
      {links.map(({ href, label }) => (
        <Link key={href} href={href} className="text-sm" data-testid={`nav-${href.slice(1)}`}>
          {label}
        </Link>
      ))}
      {signedIn ? <SignOutButton /> : null}
      {signedIn ? (
        <span className="ml-auto hidden text-xs text-zinc-600 sm:inline dark:text-zinc-400">
          Press <kbd className="rounded border px-1">?</kbd> for keyboard shortcuts
        </span>
      ) : null}
    </nav>
  );
}
