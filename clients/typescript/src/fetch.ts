/** What sends a request (the platform's fetch by default; a proxy's agent, a test's recorder). */
export type Fetch = (request: Request) => Promise<Response>;

/** What waits between tries (a timer by default). */
export type Sleep = (milliseconds: number) => Promise<void>;
