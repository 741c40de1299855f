/** One word of a command line, and whether it stands where a shell looks for the program to run. */
export type ShellWord = { word: string; command: boolean };

/** Words after which the next word is again a program to run. */
const RESERVED = new Set(["!", "{", "}", "if", "then", "else", "elif", "do", "while", "until", "time", "exec"]);
const OPERATOR = /[;&|()<>\n]/;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * Splits a command the way a shell would (quotes, backslashes, operators, redirections), without expanding anything:
 * git runs a program-valued setting through `sh -c`. A word that still holds an expansion (`$`, a backquote) or a
 * placeholder git fills in (`%f`) is left out, since what it names is not known here; so are assignments before a
 * program (`LANG=C sort`). What a redirection names is an ordinary word (`< input.txt`).
 */
export function shellWords(line: string): ShellWord[] {
  const out: ShellWord[] = [];
  let word = "";
  let started = false;
  let unknown = false;
  let command = true;
  const end = (): void => {
    if (!started) return;
    if (command && RESERVED.has(word) && !unknown) {
      // `! cmd`, `{ cmd; }`: the next word is the program.
    } else if (command && !unknown && ASSIGNMENT.test(word)) {
      // `FOO=bar cmd`: still before the program.
    } else {
      if (!unknown) out.push({ word, command });
      command = false;
    }
    word = "";
    started = false;
    unknown = false;
  };
  let i = 0;
  while (i < line.length) {
    const c = line[i] as string;
    if (c === " " || c === "\t") {
      end();
      i++;
    } else if (c === "'") {
      const close = line.indexOf("'", i + 1);
      const stop = close === -1 ? line.length : close;
      word += line.slice(i + 1, stop);
      started = true;
      i = stop + 1;
    } else if (c === '"') {
      started = true;
      i++;
      while (i < line.length && line[i] !== '"') {
        if (line[i] === "\\" && i + 1 < line.length && '"\\$`'.includes(line[i + 1] as string)) i++;
        else if (line[i] === "$" || line[i] === "`") unknown = true;
        word += line[i];
        i++;
      }
      i++;
    } else if (c === "\\") {
      if (i + 1 < line.length && line[i + 1] !== "\n") word += line[i + 1];
      started = true;
      i += 2;
    } else if (c === "#" && !started) {
      break;
    } else if (OPERATOR.test(c)) {
      // A file descriptor number written against a redirection (`2>`) is not a word.
      if ((c === "<" || c === ">") && /^[0-9]+$/.test(word) && started) {
        word = "";
        started = false;
      }
      end();
      let j = i + 1;
      while (j < line.length && /[;&|<>]/.test(line[j] as string)) j++;
      const op = line.slice(i, j);
      // `>&2`, `2>&1`, `<&-`: a descriptor, not a file.
      if (/[<>]&$/.test(op)) while (j < line.length && /[0-9-]/.test(line[j] as string)) j++;
      command = !/[<>]/.test(op);
      i = j;
    } else {
      if (c === "$" || c === "`" || c === "%") unknown = true;
      word += c;
      started = true;
      i++;
    }
  }
  end();
  return out;
}
