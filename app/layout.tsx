import type { Metadata } from "next";
import "./globals.css";
import { HydratedMarker } from "@/components/hydrated-marker";
import { ServiceWorker } from "@/components/service-worker";
import { ShortcutsHelp } from "@/components/shortcuts-help";
import { AppNav } from "@/components/app-nav";
import { navLinks } from "@/lib/ui/views/nav-links";
import { requestActor } from "@/lib/http/page-actor";

export const metadata: Metadata = {
  title: "Plangate",
  description: "Plan-mode control plane for coding agents",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Signed out (sign-in, a one-time link): no navigation at all; signed in: only the pages this actor can use.
  const actor = await requestActor();
  const signedIn = actor !== null && actor.kind !== "agent-token";
  return (
    <html lang="en">
      <body className="min-h-screen font-sans antialiased">
        <header className="border-b border-zinc-200 dark:border-zinc-800">
          <AppNav signedIn={signedIn} links={navLinks(actor)} />
        </header>
        <main className="mx-auto max-w-5xl px-4 py-6">{children}</main>
        <HydratedMarker />
        <ServiceWorker />
        <ShortcutsHelp />
      </body>
    </html>
  );
}
