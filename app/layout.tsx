import type { Metadata } from "next";
import Link from "next/link";
import "./globals.css";
import { HydratedMarker } from "@/components/hydrated-marker";
import { ShortcutsHelp } from "@/components/shortcuts-help";
import { SignOutButton } from "@/components/sign-out-button";

export const metadata: Metadata = {
  title: "Plangate",
  description: "Plan-mode control plane for coding agents",
};

const NAV = [
  ["/desk", "Desk"],
  ["/webhooks", "Webhooks"],
  ["/people", "People"],
  ["/tokens", "Tokens"],
  ["/audit", "Audit"],
  ["/account", "Account"],
] as const;

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans antialiased">
        <header className="border-b border-zinc-200 dark:border-zinc-800">
          <nav className="mx-auto flex max-w-5xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3" aria-label="Main">
            <Link href="/" className="font-semibold tracking-tight" data-testid="nav-home">
              Plangate
            </Link>
            {NAV.map(([href, label]) => (
              <Link key={href} href={href} className="text-sm" data-testid={`nav-${href.slice(1)}`}>
                {label}
              </Link>
            ))}
            <SignOutButton />
            <span className="ml-auto hidden text-xs text-zinc-600 sm:inline dark:text-zinc-400">
              Press <kbd className="rounded border px-1">?</kbd> for keyboard shortcuts
            </span>
          </nav>
        </header>
        <main className="mx-auto max-w-5xl px-4 py-6">{children}</main>
        <HydratedMarker />
        <ShortcutsHelp />
      </body>
    </html>
  );
}
