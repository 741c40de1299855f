import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { parseCodexConfig, recordedHash, withTrustedHooks } from "./codex-config-toml";

const THEIRS = "/h/hooks.json:stop:0:0";
const OURS = "/h/hooks.json:stop:1:0";
const person = [
  "# my Codex settings",
  'model = "gpt"   # the one I pay for',
  "",
  "[model_providers.local]",
  'base_url = "http://127.0.0.1:1234/v1" # lab box',
  "",
  `[hooks.state."${THEIRS}"]`,
  'trusted_hash = "sha256:theirs"',
  "enabled = true",
  "",
].join("\n");

describe("Codex's config.toml: the trust Plangate records", () => {
  it("adds its entry and keeps every line of the person's file, comments and layout included", () => {
    const added = withTrustedHooks(person, [], [{ key: OURS, hash: "sha256:ours" }]);
    for (const line of person.split("\n").filter(Boolean)) expect(added).toContain(line);
    expect(recordedHash(added, OURS)).toBe("sha256:ours");
    expect(recordedHash(added, THEIRS)).toBe("sha256:theirs");
    const { hooks, ...rest } = parse(added) as { hooks: { state: Record<string, unknown> } };
    expect(rest).toEqual({ model: "gpt", model_providers: { local: { base_url: "http://127.0.0.1:1234/v1" } } });
    expect(hooks.state[THEIRS]).toEqual({ trusted_hash: "sha256:theirs", enabled: true });
  });

  it("moves its entry, and taking its last one out gives back the person's file exactly", () => {
    const added = withTrustedHooks(person, [], [{ key: OURS, hash: "sha256:ours" }]);
    const moved = withTrustedHooks(added, [OURS], [{ key: "/h/hooks.json:stop:2:0", hash: "sha256:n" }]);
    expect([recordedHash(moved, OURS), recordedHash(moved, "/h/hooks.json:stop:2:0")]).toEqual([null, "sha256:n"]);
    expect(withTrustedHooks(moved, ["/h/hooks.json:stop:2:0"], [])).toBe(person);
    // Re-trusting a key the person keeps more settings on changes its hash only.
    const rehashed = withTrustedHooks(person, [], [{ key: THEIRS, hash: "sha256:new" }]);
    expect((parse(rehashed) as { hooks: { state: Record<string, unknown> } }).hooks.state[THEIRS]).toEqual({
      trusted_hash: "sha256:new",
      enabled: true,
    });
  });

  it("writes a new file's entries as tables, and a key with a quote stays one TOML string", () => {
    const odd = '/h/a"b]/hooks.json:stop:0:0';
    const text = withTrustedHooks("", [], [{ key: odd, hash: "sha256:q" }]);
    expect(text).toContain('[hooks.state."/h/a\\"b]/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:q"');
    expect(Object.keys((parse(text) as { hooks: { state: object } }).hooks.state)).toEqual([odd]);
    expect(withTrustedHooks(text, [odd], [])).toBe("\n");
  });

  it.each([
    ["a dotted key", `hooks.state."${OURS}".trusted_hash = "sha256:d"\n`],
    ["an inline table", `[hooks]\nstate = { "${OURS}" = { trusted_hash = "sha256:d" } }\n`],
    ["a literal string", `[hooks.state.'${OURS}']\ntrusted_hash = 'sha256:d'\n`],
  ])("reads the hash however TOML spells it: %s", (_, text) => {
    expect(recordedHash(text, OURS)).toBe("sha256:d");
  });

  it("refuses, writing nothing, where the person spelled Plangate's entry in a form it cannot take out alone", () => {
    const inline = `[hooks]\nstate = { "${OURS}" = { trusted_hash = "sha256:old" } }\n`;
    expect(() => withTrustedHooks(inline, [OURS], [{ key: OURS, hash: "sha256:new" }])).toThrow(/by hand/);
    const dotted = `hooks.state."${OURS}".trusted_hash = "sha256:old"\n`;
    expect(() => withTrustedHooks(dotted, [OURS], [])).toThrow(/by hand/);
    // A multi-line string whose line looks like Plangate's header is the person's text, not a table.
    const quoted = `notes = """\n[hooks.state."${OURS}"]\n"""\n`;
    expect(() => withTrustedHooks(quoted, [OURS], [])).toThrow(/by hand/);
  });

  it("keeps the comments and blank lines that follow its table (they belong to the person's next one)", () => {
    const text = `[hooks.state."${OURS}"]\ntrusted_hash = "sha256:o"\n\n# my work profile: keep\n[profiles.work]\nmodel = "x"\n`;
    expect(withTrustedHooks(text, [OURS], [])).toBe('\n# my work profile: keep\n[profiles.work]\nmodel = "x"\n');
  });

  it("keeps an integer past 2^53 exactly, and reads trust beside it", () => {
    const text = `big = 9223372036854775807\n`;
    const added = withTrustedHooks(text, [], [{ key: OURS, hash: "sha256:b" }]);
    expect(added.startsWith(text)).toBe(true);
    expect(recordedHash(added, OURS)).toBe("sha256:b");
  });

  it("refuses a file that is not TOML, naming it, and reads no trust from it", () => {
    const broken = 'model = "gpt\n[hooks.state."k"]\ntrusted_hash = "x"\n';
    expect(() => parseCodexConfig(broken, "/home/me/.codex/config.toml")).toThrow(
      /\/home\/me\/\.codex\/config\.toml is not valid TOML/,
    );
    expect(() => withTrustedHooks(broken, [], [{ key: "k", hash: "y" }], "config.toml")).toThrow(/not valid TOML/);
    expect(recordedHash(broken, "k")).toBeNull();
  });
});
