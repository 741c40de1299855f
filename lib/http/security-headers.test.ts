import { describe, expect, it } from "vitest";
import { API_SECURITY_HEADERS, securityHeaders } from "./security-headers";

type Config = { headers: () => Promise<{ source: string; headers: { key: string; value: string }[] }[]> };

describe("the headers Next sets on API answers (next.config.mjs)", () => {
  it("are exactly API_SECURITY_HEADERS, on every /api path", async () => {
    const config = ((await import("../../next.config.mjs" as string)) as { default: Config }).default;
    const rules = await config.headers();
    expect(rules.map((r) => r.source)).toEqual(["/api/:path*"]);
    const set = Object.fromEntries((rules[0]?.headers ?? []).map((h) => [h.key, h.value]));
    expect(set).toEqual(API_SECURITY_HEADERS);
    expect(set["Content-Security-Policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
  });

  it("pages carry every header an API answer does, but their own CSP", () => {
    const page = securityHeaders(false).response;
    for (const [key, value] of Object.entries(API_SECURITY_HEADERS)) {
      if (key !== "Content-Security-Policy") expect(page[key]).toBe(value);
    }
    expect(page["X-Frame-Options"]).toBe("DENY");
    expect(page["Content-Security-Policy"]).toContain("frame-ancestors 'none'");
  });
});
