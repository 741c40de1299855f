import { redirect } from "next/navigation";
import { pageActor } from "@/lib/http/page-actor";

/** Older hooks printed /reviews: the desk is where reviews wait now. */
export default async function ReviewsPage() {
  await pageActor();
  redirect("/desk");
}
