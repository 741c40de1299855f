import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Every handler identifies who is asking: an API route is made with route(need, …) unless it is one of the
// open ones (openRoute), and every page but sign-in and one-time links starts with pageActor(). Both wrappers
// also run the request guard (Host, Origin), which the proxy leaves to the API. A new route or page that
// forgets fails here, before any attack test has to find it.
const root = path.resolve(import.meta.dirname, "../..");
const OPEN_ROUTES = [
  "app/api/health/route.ts",
  "app/api/auth/[...all]/route.ts",
  "app/api/links/[token]/route.ts",
  "app/cli/plangate.mjs/route.ts",
  // Slack's requests carry Slack's signature, checked instead of a credential (lib/notify/answer-slack.ts).
  "app/api/integrations/slack/interactions/route.ts",
];
const OPEN_PAGES = ["app/sign-in/page.tsx", "app/link/[token]/page.tsx"];

function files(dir: string, name: string): string[] {
  return fs
    .readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => path.basename(f) === name)
    .map((f) => path.join(dir, f));
}

describe("every route and page identifies its caller", () => {
  it.each(files("app", "route.ts"))("%s", (file) => {
    const text = fs.readFileSync(path.join(root, file), "utf8");
    const handlers = [...text.matchAll(/export (?:const|async function) (GET|POST|PUT|PATCH|DELETE)\b(.*)/g)];
    expect(handlers.length).toBeGreaterThan(0);
    for (const [, method, rest] of handlers) {
      const made = OPEN_ROUTES.includes(file)
        ? /= (openRoute\(|handle;)/
        : /= route\("(read|submit|start|chat|decide|answer|manage|identified)"/;
      expect(`${method}${rest}`, `${file} ${method}`).toMatch(made);
    }
  });

  it.each(files("app", "page.tsx").filter((f) => !OPEN_PAGES.includes(f)))("%s", (file) => {
    expect(fs.readFileSync(path.join(root, file), "utf8")).toMatch(/\n {2}(const actor = )?await pageActor\(\);\n/);
  });
});
