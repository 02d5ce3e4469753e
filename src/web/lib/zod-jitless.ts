/**
 * Stands in for 'zod' in the browser's production build (vite.config.ts): zod itself, configured
 * before any schema exists. zod probes once whether `new Function` works, to compile faster object
 * parsers; our CSP (`script-src 'self'`) refuses it, and Chrome logs the refusal as a CSP issue
 * (Lighthouse's best practices). The browser only validates small forms, so zod's plain parsers
 * do, unprobed. The server keeps the compiled ones.
 */
import { config } from 'zod/v4';

config({ jitless: true });

export * from 'zod/v4';
