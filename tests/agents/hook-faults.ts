// The ways the hook command an agent's module runs (pi's extension, Cline's and Amp's plugins) can fail, shared by
// their real-CLI suites: each must leave the plan unapproved. The last row is the suite's own (a deadline, a server
// that cannot be reached).
type Fault = [name: string, command: () => Promise<string>];

export const hookFaults = (agent: string, last: Fault): Fault[] => [
  ["a command that is not there", async () => `/nonexistent/plangate hook ${agent}`],
  ["a hook that fails", async () => "exit 1"],
  ["a hook that prints nothing", async () => "cat > /dev/null"],
  ["a hook that prints garbage", async () => "cat > /dev/null; echo '{not json'"],
  last,
];
