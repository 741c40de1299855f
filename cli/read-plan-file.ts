// A plan file an agent wrote, read as its hook reads it: the file may be a repository's, so a link is never
// followed, only a regular file is read, and only up to a size limit.
import fs from "node:fs";

/** The text, or what is wrong in words for the model (`tool`: the agent's plan tool, to call again). */
export function readPlanFile(file: string, maxBytes: number, tool: string): string | { problem: string } {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch {
    return { problem: `there is no plan at ${file}: write the plan there, then call ${tool} again` };
  }
  try {
    const st = fs.fstatSync(fd);
    // A hard link is another name of a file that may be anywhere (the credentials, say): never read as a plan.
    if (!st.isFile() || st.nlink !== 1) return { problem: `${file} is not a plain file` };
    if (st.size > maxBytes) return { problem: `the plan is over ${maxBytes} bytes` };
    const text = fs.readFileSync(fd, "utf8");
    return text.trim() === "" ? { problem: `the plan file ${file} is empty` } : text;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Puts the plan as a person approved it back into its file: only a regular file with no other name (never through a
 * link, never a FIFO that would block, never a hard link whose other name is outside the project).
 */
export function writePlanFile(file: string, text: string): void {
  const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.nlink !== 1)
      throw new Error(`${file} is not a plain file; the approved plan was not written`);
    fs.ftruncateSync(fd);
    fs.writeFileSync(fd, text);
  } finally {
    fs.closeSync(fd);
  }
}
