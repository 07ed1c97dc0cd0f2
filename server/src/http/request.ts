import type { LanguageCode } from '@berth/contracts';
import type { ResolvedTenant } from '../modules/tenants/service.ts';
import type { ActiveSession } from '../modules/sessions/service.ts';

// What every /api request carries once http/context.ts has run. It is declared in a file of its
// own so that modules needing only the types (errors.ts, the e2e seed) do not import the context.
declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers while a required second factor is still to be set up (http/context.ts). */
    beforeTwoFactorSetup?: boolean;
    /**
     * The route signs someone in or out (issues, swaps or ends a cookie session): a request with
     * an API token is refused before anything else (http/context.ts).
     */
    signsIn?: boolean;
  }
  interface FastifyRequest {
    lang: LanguageCode;
    tenant: ResolvedTenant;
    /** The signed-in session; undefined when none, or while a second factor is pending. */
    auth: ActiveSession | undefined;
  }
}
