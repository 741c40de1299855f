import { isDeepStrictEqual } from "node:util";
import { parse, stringify } from "smol-toml";

/**
 * The trust Codex records for each hook in its config.toml (`[hooks.state."<hooks.json>:<event>:<group>:<handler>"]
 * trusted_hash = "sha256:…"`). Read through a TOML parser; written by taking out Plangate's own tables and adding
 * them at the end, every other line untouched, and the result parsed again: if anything of the person's changed,
 * nothing is written. (A patching library kept the layout as well, but its 160 KB slowed every hook's start.)
 */
type Table = Record<string, unknown>;

// Integers past 2^53 are valid TOML: kept exactly, not refused.
const TOML_OPTIONS = { integersAsBigInt: "asNeeded" } as const;

const isTable = (v: unknown): v is Table => typeof v === "object" && v !== null && !Array.isArray(v);

/** The file's tables; a file that is not TOML is refused with where it fails, so nothing is written over it. */
export function parseCodexConfig(toml: string, file: string): Table {
  try {
    return parse(toml, TOML_OPTIONS) as Table;
  } catch (error) {
    const where = (error as { line?: number }).line;
    const first = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
    throw new Error(`${file} is not valid TOML${where ? ` (line ${where})` : ""}: ${first}`);
  }
}

const states = (doc: Table): Table => (isTable(doc.hooks) && isTable(doc.hooks.state) ? doc.hooks.state : {});

/** The hooks.state key a table header names (`[hooks.state."k"]`, however quoted), or undefined. */
function headerKey(line: string): string | undefined {
  const t = line.trim();
  if (!t.startsWith("[") || t.startsWith("[[")) return undefined;
  try {
    const keys = Object.keys(states(parse(t, TOML_OPTIONS) as Table));
    return keys.length === 1 ? keys[0] : undefined;
  } catch {
    return undefined;
  }
}

/** config.toml with the trust entries of `drop` taken out and those of `add` written, everything else as it was. */
export function withTrustedHooks(
  toml: string,
  drop: readonly string[],
  add: readonly { key: string; hash: string }[],
  file = "config.toml",
): string {
  const before = parseCodexConfig(toml, file);
  const old = states(before);
  const gone = new Set([...drop, ...add.map((a) => a.key)]);
  const kept: string[] = [];
  // A taken-out table ends at its last key: the blank lines and comments after it belong to what follows.
  let skipped: string[] | null = null;
  const keepTrailing = () => {
    if (!skipped) return;
    let from = skipped.length;
    while (from > 0 && /^\s*(#.*)?$/.test(skipped[from - 1] ?? "")) from--;
    kept.push(...skipped.slice(from));
    skipped = null;
  };
  for (const line of toml.split("\n")) {
    if (line.trim().startsWith("[")) {
      keepTrailing();
      const key = headerKey(line);
      if (key !== undefined && gone.has(key)) skipped = [];
    }
    if (skipped) skipped.push(line);
    else kept.push(line);
  }
  keepTrailing();
  // A re-trusted entry keeps whatever else the person set on it.
  const entries = Object.fromEntries(
    add.map(({ key, hash }) => [key, { ...(isTable(old[key]) ? old[key] : {}), trusted_hash: hash }]),
  );
  const body = kept.join("\n").replace(/\n+$/, "");
  const tables = add.length > 0 ? stringify({ hooks: { state: entries } }).trim() : "";
  const text = `${[body, tables].filter(Boolean).join("\n\n")}\n`;

  const want: Table = { ...old };
  for (const key of gone) delete want[key];
  Object.assign(want, entries);
  let after: Table | undefined;
  try {
    after = parse(text, TOML_OPTIONS) as Table;
  } catch {
    // our tables collided with the person's spelling of the same keys: refused below
  }
  // The parser's tables have no prototype: compared as plain data (big integers as their digits).
  const plain = (v: unknown): unknown =>
    JSON.parse(JSON.stringify(v, (_, x: unknown) => (typeof x === "bigint" ? `${x}n` : x)));
  const rest = (doc: Table) => {
    const { hooks, ...others } = doc;
    const { state: _, ...hooksRest } = isTable(hooks) ? hooks : {};
    return plain({ others, hooksRest });
  };
  if (!after || !isDeepStrictEqual(plain(states(after)), plain(want)) || !isDeepStrictEqual(rest(after), rest(before)))
    throw new Error(
      `${file}: Plangate's trust entries cannot be written without changing the rest of the file (its hooks.state is spelled inline or with dotted keys); move those entries into [hooks.state."…"] tables, or take Plangate's out by hand, and run connect again`,
    );
  return text;
}

/** The trusted_hash config.toml records for a key; null when none (or the file is not TOML: Codex skips it too). */
export function recordedHash(toml: string, key: string): string | null {
  let doc: Table;
  try {
    doc = parseCodexConfig(toml, "config.toml");
  } catch {
    return null;
  }
  const entry = states(doc)[key];
  return isTable(entry) && typeof entry.trusted_hash === "string" ? entry.trusted_hash : null;
}
