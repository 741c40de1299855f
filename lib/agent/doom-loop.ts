/** The same tool with the same input three times in a row is a loop worth asking about. */
export function isDoomLoop(
  previous: { tool: string; input: unknown }[],
  call: { tool: string; input: unknown },
): boolean {
  if (previous.length < 2) return false;
  const key = JSON.stringify([call.tool, call.input]);
  return previous.slice(-2).every((p) => JSON.stringify([p.tool, p.input]) === key);
}
