import "server-only";
import { cache } from "react";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { identify } from "../auth/identify";
import type { Actor } from "../auth/rules/rights";
import { getDb } from "../db/client";

/**
 * Every page but sign-in and one-time links starts with this: the proxy only sees that a cookie came, this
 * checks it (a page's data is read by the page itself, so a forged cookie must get nothing).
 */
export async function pageActor(): Promise<Actor> {
  const actor = await requestActor();
  if (!actor || actor.kind === "agent-token") redirect("/sign-in");
  return actor;
}

/** Who sent this page's request, or null: asked once per request (the layout's navigation and the page share it). */
export const requestActor = cache(async (): Promise<Actor | null> => identify(getDb(), await headers()));
