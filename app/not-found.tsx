import Link from "next/link";
import { connection } from "next/server";

/**
 * Rendered per request, like every other page: a prerendered 404 would carry no CSP nonce, so the browser
 * would refuse its scripts (no shortcuts, no navigation without a reload).
 */
export default async function NotFound() {
  await connection();
  return (
    <section aria-labelledby="not-found-title" className="flex flex-col gap-2" data-testid="not-found">
      <h1 id="not-found-title" className="text-xl font-semibold">
        Nothing here
      </h1>
      <p className="text-sm">
        That address is not a Plangate page.{" "}
        <Link href="/" className="underline">
          Back to the sessions
        </Link>
      </p>
    </section>
  );
}
