/** The package's version (package.json says the same); the User-Agent carries it. */
export const VERSION = "0.2.0";
