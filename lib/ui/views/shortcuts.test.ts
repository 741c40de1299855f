import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { KEYS, NAMED_KEYS, SHORTCUTS } from "./shortcuts";

const dir = path.resolve(import.meta.dirname, "../../../components");
// The components, and the decision card's keys (a pure function the card calls).
const sources = [
  ...fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".tsx") || f.endsWith(".ts"))
    .map((f) => path.join(dir, f)),
  path.resolve(import.meta.dirname, "../../review/card-keys.ts"),
].map((file) => ({ file: path.basename(file), text: fs.readFileSync(file, "utf8") }));
const listed = SHORTCUTS.flatMap((s) => s.keys.split(" / ").flatMap((k) => k.split("+")));

describe("the shortcuts list is collected from where keys are bound", () => {
  it("every key a component compares event.key with by name is listed", () => {
    const literals = sources.flatMap(({ file, text }) =>
      [...text.matchAll(/\.key\s*[!=]==\s*"([^"]+)"/g)].map((m) => ({ file, key: m[1] ?? "" })),
    );
    expect(literals.length).toBeGreaterThan(5);
    for (const { file, key } of literals) {
      // A letter, digit or sign is bound through KEYS (so the list has it); a named key must be in the list's words.
      expect(NAMED_KEYS[key], `${file} binds "${key}" without KEYS`).toBeDefined();
      expect(listed, `${file} binds ${key}`).toContain(NAMED_KEYS[key]);
    }
  });

  it("every key in KEYS is bound by a component and listed", () => {
    const all = sources.map((s) => s.text).join("\n");
    for (const [name, key] of Object.entries(KEYS)) {
      expect(all, `KEYS.${name} is not bound anywhere`).toMatch(new RegExp(`KEYS\\.${name}\\b`));
      expect(listed, `KEYS.${name}`).toContain(key);
    }
  });

  it("lists the desk's j and k", () => {
    expect(SHORTCUTS.some((s) => s.keys === "j / k")).toBe(true);
  });
});
