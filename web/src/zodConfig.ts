import { z } from 'zod';

// zod compiles object parsers with `new Function` unless jitless, and even its probe for eval
// support is reported as a violation under our CSP (`script-src 'self'`, no 'unsafe-eval').
// main.tsx imports this module first, before any schema of @berth/contracts is created.
z.config({ jitless: true });
