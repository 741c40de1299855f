import { json, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// Who the presented credential is (a person with their roles, a scoped token, the operator), and nothing more.
export const GET = route("identified", async (_req, _ctx, actor) => json({ actor }));
