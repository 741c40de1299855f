// What the fake model servers share about their connections: telling a client that hung up early (an abort,
// which a test waits for) from a connection the fake dropped itself (a fault, or its own close()).
import type http from "node:http";

/** Resolves with check()'s value once it is truthy; re-checked whenever a waiter in `waiters` is called. */
export function waitUntil<T>(
  waiters: Set<() => void>,
  check: () => T | undefined,
  timeoutMs: number,
  failure: () => string,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const attempt = () => {
      const hit = check();
      if (hit === undefined) return false;
      waiters.delete(attempt);
      clearTimeout(timer);
      resolve(hit);
      return true;
    };
    const timer = setTimeout(() => {
      waiters.delete(attempt);
      reject(new Error(failure()));
    }, timeoutMs);
    if (!attempt()) waiters.add(attempt);
  });
}

export type ConnectionWatch = ReturnType<typeof watchConnections>;

/** `name` prefixes the error a test sees when a request it waits on was never closed early. */
export function watchConnections(name: string) {
  const closedEarly: number[] = [];
  const waiters = new Set<() => void>();
  const dropped = new WeakSet<http.ServerResponse>();
  let closing = false;
  return {
    /** The key (seq or index) of every request whose client closed the connection before the answer ended. */
    closedEarly,
    watch(res: http.ServerResponse, key: number) {
      res.on("close", () => {
        if (res.writableEnded || dropped.has(res) || closing) return;
        closedEarly.push(key);
        for (const w of [...waiters]) w();
      });
    },
    /** Drops the connection before any byte of the answer. */
    drop(res: http.ServerResponse) {
      dropped.add(res);
      res.socket?.destroy();
    },
    /**
     * Drops the connection once what was written reached the kernel, so the client gets those bytes (an empty
     * res.write would call back on the next tick without waiting; the socket's own queue is ordered).
     */
    dropAfterFlush(res: http.ServerResponse) {
      dropped.add(res);
      const socket = res.socket;
      socket?.write("", () => socket.destroy());
    },
    waitClosed: (key: number, timeoutMs = 5000) =>
      waitUntil(
        waiters,
        () => (closedEarly.includes(key) ? true : undefined),
        timeoutMs,
        () =>
          `${name}: request ${key} was not closed early within ${timeoutMs} ms (closedEarly: [${closedEarly.join(", ")}])`,
      ).then(() => undefined),
    /** The fake is closing: the connections it ends now are not hang-ups. */
    closing() {
      closing = true;
    },
  };
}
