import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The documents a newcomer reads name files and link to each other: a moved file or section must fail here, not
// leave a map that points nowhere.
const root = path.resolve(import.meta.dirname, "..");
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");
const docs = [
  "README.md",
  "CONTRIBUTING.md",
  "SECURITY.md",
  "bench/README.md",
  ...fs
    .readdirSync(path.join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** Text outside fenced code blocks: a block shows commands and output, not the repository's layout. */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, "");

/**
 * Every backticked word shaped like a path: one with a folder in it or a file extension. The map names only
 * repository paths in backticks, so a misspelt folder counts as missing rather than as something else.
 */
function repoPaths(text: string): string[] {
  return [...prose(text).matchAll(/`([^`\s]+)`/g)]
    .map((m) => (m[1] as string).replace(/\/$/, ""))
    .filter((p) => /^[\w.[\]-]+(\/[\w.[\]-]+)*$/.test(p) && (p.includes("/") || /\.[a-z]{2,7}$/.test(p)));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

const anchorsOf = (file: string) =>
  new Set([...prose(read(file)).matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1] as string)));

describe("the documents' map", () => {
  it("docs/architecture.md names only files and folders that exist, and names the three walks' files", () => {
    const named = repoPaths(read("docs/architecture.md"));
    expect(named.length).toBeGreaterThan(40);
    const missing = named.filter((p) => !fs.existsSync(path.join(root, p)));
    expect(missing).toEqual([]);
    for (const walked of [
      "lib/agent/drive-session.ts",
      "lib/permission/gate.ts",
      "lib/tools/exit-plan-mode.ts",
      "lib/external/submit-external-plan.ts",
      "app/api/external/plan-reviews/route.ts",
    ])
      expect(named).toContain(walked);
  });

  it.each(docs)("%s: every relative link reaches a file, and every #anchor a heading in it", (file) => {
    const broken: string[] = [];
    for (const m of prose(read(file)).matchAll(/\]\(([^)\s]+)\)/g)) {
      const link = m[1] as string;
      if (/^[a-z]+:/i.test(link)) continue;
      const [target, anchor] = link.split("#") as [string, string | undefined];
      const resolved = target === "" ? file : path.normalize(path.join(path.dirname(file), target));
      if (!fs.existsSync(path.join(root, resolved))) {
        broken.push(`${link} (no ${resolved})`);
        continue;
      }
      if (anchor && resolved.endsWith(".md") && !anchorsOf(resolved).has(anchor))
        broken.push(`${link} (no heading #${anchor} in ${resolved})`);
    }
    expect(broken).toEqual([]);
  });

  it("the README stays a front page: at most 200 lines", () => {
    expect(read("README.md").split("\n").length).toBeLessThanOrEqual(200);
  });
});
