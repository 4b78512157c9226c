/**
 * Imported first by main.tsx. Zod 4 probes for eval (`new Function`) whenever an object
 * schema is built, to compile faster parsers; the server's CSP (script-src 'self') forbids
 * eval, so each probe is logged as a CSP issue (Lighthouse best-practices "inspector-issues").
 * Schemas are built when their modules load, so this must run before any of them.
 */
import { z } from 'zod';

z.config({ jitless: true });
