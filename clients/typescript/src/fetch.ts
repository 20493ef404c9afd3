/** What sends a request (the platform's fetch by default; a proxy's agent, a test's recorder). */
export type Fetch = (request: Request) => Promise<Response>;

/** What waits between tries (a timer by default); `signal` is the caller's, which ends the wait. */
export type Sleep = (milliseconds: number, signal: AbortSignal) => Promise<void>;

/** A timer, cleared (and the wait rejected with its reason) when `signal` aborts. */
export function timer(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((done, fail) => {
    const stop = () => {
      clearTimeout(pending);
      fail(signal.reason);
    };
    const pending = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      done();
    }, milliseconds);
    signal.addEventListener("abort", stop, { once: true });
  });
}
