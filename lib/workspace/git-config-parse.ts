/** One `key = value` of a git config file. Section and name lower-cased (git compares them without case). */
export type GitConfigEntry = { section: string; subsection: string | null; name: string; value: string | null };

const NAME = /[A-Za-z0-9-]/;

/**
 * Parses git's config syntax (git-config(1), "Syntax") without running git: `[section]`, `[section "sub"]` and the
 * old `[section.sub]`, keys with or without `= value`, quoted values, the escapes git knows, `#` and `;` comments
 * and lines continued by a trailing backslash. A line git would reject is skipped, not fatal: this reads what the
 * file points at, and skipping can only miss a setting that git itself would refuse to load.
 */
export function parseGitConfig(text: string): GitConfigEntry[] {
  const out: GitConfigEntry[] = [];
  let section: string | null = null;
  let subsection: string | null = null;
  let i = 0;
  const n = text.length;
  const skipLine = () => {
    while (i < n && text[i] !== "\n") i++;
  };
  while (i < n) {
    const c = text[i] as string;
    if (c === "\n" || c === " " || c === "\t" || c === "\r" || c === "\uFEFF") {
      i++;
      continue;
    }
    if (c === "#" || c === ";") {
      skipLine();
      continue;
    }
    if (c === "[") {
      const close = text.indexOf("]", i);
      const line = text.indexOf("\n", i);
      if (close === -1 || (line !== -1 && line < close)) {
        section = null;
        skipLine();
        continue;
      }
      const header = text.slice(i + 1, close);
      const quoted = /^\s*([A-Za-z0-9.-]+)\s+"((?:[^"\\\n]|\\.)*)"\s*$/.exec(header);
      if (quoted) {
        section = (quoted[1] as string).toLowerCase();
        subsection = (quoted[2] as string).replace(/\\(.)/g, "$1");
      } else if (/^\s*[A-Za-z0-9.-]+\s*$/.test(header)) {
        const [head, ...rest] = header.trim().split(".");
        section = (head as string).toLowerCase();
        subsection = rest.length > 0 ? rest.join(".").toLowerCase() : null;
      } else {
        section = null;
      }
      i = close + 1;
      continue;
    }
    if (!/[A-Za-z]/.test(c) || section === null) {
      skipLine();
      continue;
    }
    let name = "";
    while (i < n && NAME.test(text[i] as string)) name += text[i++];
    while (i < n && (text[i] === " " || text[i] === "\t")) i++;
    if (i >= n || text[i] === "\n" || text[i] === "#" || text[i] === ";" || text[i] === "\r") {
      out.push({ section, subsection, name: name.toLowerCase(), value: null });
      continue;
    }
    if (text[i] !== "=") {
      skipLine();
      continue;
    }
    i++;
    const [value, next] = readValue(text, i);
    i = next;
    out.push({ section, subsection, name: name.toLowerCase(), value });
  }
  return out;
}

/** A value from just after `=` to its end of line (continuations joined); returns the value and where it stopped. */
function readValue(text: string, start: number): [string, number] {
  let i = start;
  let value = "";
  let pending = "";
  let quoted = false;
  let begun = false;
  while (i < text.length) {
    const c = text[i] as string;
    // git refuses a file with a line break inside quotes; ending the value there reads on like git would not.
    if (c === "\n") break;
    if (!quoted && (c === "#" || c === ";")) {
      while (i < text.length && text[i] !== "\n") i++;
      break;
    }
    if (c === "\\") {
      const e = text[i + 1];
      i += 2;
      if (e === "\n") continue;
      if (e === "\r" && text[i] === "\n") {
        i++;
        continue;
      }
      const escaped = e === "n" ? "\n" : e === "t" ? "\t" : e === "b" ? "\b" : e === '"' || e === "\\" ? e : null;
      if (escaped === null) return [value, skipRest(text, i)];
      value += pending + escaped;
      pending = "";
      begun = true;
      continue;
    }
    i++;
    if (c === '"') {
      quoted = !quoted;
      value += pending;
      pending = "";
      begun = true;
      continue;
    }
    if (!quoted && (c === " " || c === "\t" || c === "\r")) {
      if (begun) pending += c;
      continue;
    }
    value += pending + c;
    pending = "";
    begun = true;
  }
  return [value, i];
}

function skipRest(text: string, i: number): number {
  const line = text.indexOf("\n", i);
  return line === -1 ? text.length : line;
}
