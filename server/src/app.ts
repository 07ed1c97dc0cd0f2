import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { webmailUrl, type Config } from './config.ts';
import type { Db } from './db/connection.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { PasswordHasher } from './lib/password.ts';
import { registerRateLimits } from './http/rate-limits.ts';
import { registerRequestContext } from './http/context.ts';
import { registerCsrfProtection } from './http/csrf.ts';
import { registerInputGuard } from './http/input-guard.ts';
import { registerErrorHandler } from './http/errors.ts';
import { StorageWatch } from './db/storage.ts';
import { loggerOptions } from './http/logging.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { isLanguage } from './i18n/messages.ts';
import { defaultWebDistDir, registerCompression, registerWebApp } from './http/web-app.ts';
import { AuditService } from './modules/audit/service.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { AuthService, LOGIN_THROTTLES } from './modules/auth/service.ts';
import { FailureThrottle, type ThrottleRule } from './modules/auth/throttle.ts';
import { SecretBox } from './lib/secret-box.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { SessionService } from './modules/sessions/service.ts';
import { readSessionCookie } from './modules/sessions/cookie.ts';
import { TENANTS_CHANGED, TenantResolver, toPublicTenant } from './modules/tenants/service.ts';
import { userRoutes } from './modules/users/routes.ts';
import { UserProfiles } from './modules/users/profile.ts';
import { SecurityNotifier } from './modules/auth/notifier.ts';
import { REAUTH_THROTTLE, Reauthenticator } from './modules/auth/reauth.ts';
import { captchaRoutes } from './modules/captcha/routes.ts';
import { createCaptchaVerifier } from './modules/captcha/service.ts';
import { DOMAIN_USER_PASSWORD_THROTTLES, DomainUserPasswordService } from './modules/domain-users/service.ts';
import { Mailer } from './modules/mail/mailer.ts';
import { outboxRoutes } from './modules/mail/routes.ts';
import { serversRoutes } from './modules/servers/routes.ts';
import { otpRoutes } from './modules/otp/routes.ts';
import { OTP_THROTTLES, OtpService } from './modules/otp/service.ts';
import { passwordRoutes } from './modules/password/routes.ts';
import { FORGOT_THROTTLES, PasswordService } from './modules/password/service.ts';
import { registrationRoutes } from './modules/registration/routes.ts';
import { REGISTRATION_THROTTLES, RegistrationService } from './modules/registration/service.ts';
import { sessionRoutes } from './modules/sessions/routes.ts';
import { twoFactorRoutes } from './modules/twofactor/routes.ts';
import { cartRoutes } from './modules/cart/routes.ts';
import { DomainDirectory } from './modules/domains/service.ts';
import { languageRoutes } from './modules/languages/routes.ts';
import { menuRoutes } from './modules/menu/routes.ts';
import { RealtimeHub } from './modules/realtime/hub.ts';
import { AVATAR_MAX_BYTES, AvatarService } from './modules/users/avatar-service.ts';
import { SECOND_FACTOR_THROTTLE, TwoFactorService } from './modules/twofactor/service.ts';
// Hosting: domains, domain users, DNS, customers, tenants, audit log, dashboard, expiry, log in as customer.
import { AuditLogReader } from './modules/audit/log.ts';
import { auditRoutes } from './modules/audit/routes.ts';
import { customerRoutes } from './modules/customers/routes.ts';
import { CustomerService } from './modules/customers/service.ts';
import { dashboardRoutes } from './modules/dashboard/routes.ts';
import { DashboardService } from './modules/dashboard/service.ts';
import { dnsRoutes } from './modules/dns/routes.ts';
import { DnsService } from './modules/dns/service.ts';
import { MailSendLimits } from './modules/mail-limits/service.ts';
import { DomainUserAccounts } from './modules/domain-users/accounts.ts';
import { MailboxAutoreplies } from './modules/domain-users/autoreply.ts';
import { domainUserAccountRoutes, domainUserPasswordRoutes } from './modules/domain-users/routes.ts';
import { mailAliasRoutes } from './modules/mail-aliases/routes.ts';
import { hostingServicesRoutes } from './modules/services/routes.ts';
import { MailAliases } from './modules/mail-aliases/service.ts';
import { DomainEditor } from './modules/domains/editor.ts';
import { DomainListing } from './modules/domains/listing.ts';
import { domainRoutes } from './modules/domains/routes.ts';
import { ExpiryReminders } from './modules/expiry/service.ts';
import { DomainProof } from './modules/domains/proof.ts';
import { impersonationRoutes } from './modules/impersonation/routes.ts';
import { ImpersonationService } from './modules/impersonation/service.ts';
import { notificationRoutes } from './modules/notifications/routes.ts';
import { NotificationService } from './modules/notifications/service.ts';
import { TenantAdministration } from './modules/tenants/admin.ts';
import { SecuritySettingsService } from './modules/security/service.ts';
import { ApiTokenService } from './modules/api-tokens/service.ts';
import { apiTokenRoutes } from './modules/api-tokens/routes.ts';
import { PasskeyService } from './modules/passkeys/service.ts';
import { passkeyRoutes } from './modules/passkeys/routes.ts';
import { OPENAPI_SECURITY_SCHEMES, withTokenScope } from './modules/api-tokens/openapi.ts';
import { securityRoutes } from './modules/security/routes.ts';
import { tenantAdminRoutes, tenantLogoRoute, tenantRoutes } from './modules/tenants/routes.ts';
// Payments: bank transfer and Stripe providers, saved payment methods, confirmation by admins, invoice PDFs.
import { InvoiceSettlementService } from './modules/invoices/settlement.ts';
import { createPayments } from './modules/payments/wiring.ts';
// The shop: catalogue, cart, checkout, invoices, credit ledger, promo codes.
import { CartService } from './modules/cart/service.ts';
import { CreditProvider } from './modules/credit/provider.ts';
import { creditRoutes } from './modules/credit/routes.ts';
import { JobQueue } from './modules/jobs/queue.ts';
import { JobsAdmin } from './modules/jobs/service.ts';
import { jobsRoutes } from './modules/jobs/routes.ts';
import { WebhookAllowedRangeList } from './modules/webhooks/allowed-ranges.ts';
import { WebhookService } from './modules/webhooks/service.ts';
import { webhooksRoutes } from './modules/webhooks/routes.ts';
import { AddressGuard } from './modules/webhooks/address-guard.ts';
import { CreditService } from './modules/credit/service.ts';
import { invoiceRoutes } from './modules/invoices/routes.ts';
import { InvoiceReader } from './modules/invoices/service.ts';
import { CheckoutService } from './modules/orders/checkout.ts';
import { Billing } from './modules/billing/service.ts';
import { CertificateService } from './modules/certificates/service.ts';
import { certificateRoutes } from './modules/certificates/routes.ts';
import { acmeSettingsOf, platformNames } from './modules/certificates/settings.ts';
import { PaymentProviders } from './modules/payments/registry.ts';
import { promoRoutes } from './modules/promo/routes.ts';
import { PromoAdmin } from './modules/promo/service.ts';
import { shopRoutes } from './modules/shop/routes.ts';
import { SessionCache } from './modules/sessions/cache.ts';
import type { SessionWithUserRow } from './modules/sessions/queries.ts';
import { ShopCatalogue } from './modules/shop/service.ts';

/**
 * The one <style> element Swagger UI's bundle writes at run time (its hash as Chromium reports it;
 * e2e/specs/api-docs.spec.ts fails if an upgrade of @fastify/swagger-ui writes another).
 */
const SWAGGER_UI_STYLE_HASH = 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w=';

export interface AppOptions {
  config: Config;
  db: Db;
  clock?: Clock;
  /** A logger to use instead of building one from config (tests pass a silent one). */
  logger?: FastifyBaseLogger;
  webDistDir?: string;
}

export interface Services {
  clock: Clock;
  hasher: PasswordHasher;
  sessions: SessionService;
  tenants: TenantResolver;
  audit: AuditService;
  auth: AuthService;
  mailer: Mailer;
  twoFactor: TwoFactorService;
  realtime: RealtimeHub;
  impersonation: ImpersonationService;
  expiry: ExpiryReminders;
  billing: Billing;
  certificates: CertificateService;
  /** Tells of mailboxes over their hourly sending limit. */
  mailLimits: MailSendLimits;
  /** Zones, records and DKIM keys. */
  dns: DnsService;
  /** Seals what must be read back (TOTP seeds, certificate and account keys). */
  secrets: SecretBox;
  /** The shop's money seam: how invoices get paid and settled. */
  paymentProviders: PaymentProviders;
  settlement: InvoiceSettlementService;
  /** The durable job queue: every mail, and the lookups of forgot-password, one-time codes and registration. */
  jobs: JobQueue;
}

/** Builds the whole HTTP app without listening: main.ts listens, tests inject. */
export async function buildApp(options: AppOptions): Promise<{ app: FastifyInstance; services: Services }> {
  const { config, db } = options;
  const clock = options.clock ?? systemClock;
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: loggerOptions(config.LOG_LEVEL) }),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const hasher = new PasswordHasher({ memoryCost: config.ARGON2_MEMORY_KIB, timeCost: config.ARGON2_TIME_COST });
  const sessionCache = config.DATABASE_URL
    ? new SessionCache<SessionWithUserRow>({
        databaseUrl: config.DATABASE_URL,
        clock,
        onError: (error) =>
          app.log.warn({ err: error }, 'session cache: listener connection lost; sessions are read from the database until it is back'),
      })
    : undefined;
  await sessionCache?.start();
  const sessions = new SessionService(db, clock, sessionCache);
  const tenants = new TenantResolver(db, clock);
  const audit = new AuditService(db, clock, app.log);
  const jobs = new JobQueue({ db, databaseUrl: config.DATABASE_URL, log: app.log, workers: config.JOB_WORKERS === 'on' });
  const mailer = new Mailer({
    jobs,
    db,
    clock,
    log: app.log,
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    production: config.NODE_ENV === 'production',
  });
  const throttle = (rule: ThrottleRule) => new FailureThrottle(db, clock, rule);
  const reauth = new Reauthenticator(hasher, throttle(REAUTH_THROTTLE));
  const fallbackUrl = config.BERTH_PUBLIC_URL ?? `http://localhost:${config.PORT}`;
  const notifier = new SecurityNotifier(mailer, clock, app.log, fallbackUrl);
  const captcha = await createCaptchaVerifier({
    db,
    clock,
    log: app.log,
    altchaHmacKey: config.ALTCHA_HMAC_KEY,
    ...(config.RECAPTCHA_SITE_KEY && config.RECAPTCHA_SECRET
      ? {
          recaptcha: {
            siteKey: config.RECAPTCHA_SITE_KEY,
            secret: config.RECAPTCHA_SECRET,
            verifyUrl: config.RECAPTCHA_VERIFY_URL,
            minScore: config.RECAPTCHA_MIN_SCORE,
          },
        }
      : {}),
  });

  const auth = new AuthService({
    db,
    hasher,
    sessions,
    audit,
    accountThrottle: throttle(LOGIN_THROTTLES.account),
    ipThrottle: throttle(LOGIN_THROTTLES.ip),
  });
  const secrets = SecretBox.load({ key: config.BERTH_SECRET_KEY, oldKeys: config.BERTH_SECRET_KEYS_OLD, dataDir: config.BERTH_DATA_DIR });
  const webhookRanges = new WebhookAllowedRangeList({ db, clock, audit, environment: config.WEBHOOK_ALLOWED_RANGES });
  const webhooks = new WebhookService({
    db,
    clock,
    secrets,
    jobs,
    log: app.log,
    guard: new AddressGuard({
      allowedRanges: config.WEBHOOK_ALLOWED_RANGES,
      resolvers: config.DNS_RESOLVERS?.split(',') ?? [],
      extraRanges: () => webhookRanges.ranges(),
    }),
  });
  const twoFactor = new TwoFactorService({
    db,
    clock,
    audit,
    sessions,
    codeThrottle: throttle(SECOND_FACTOR_THROTTLE),
    reauth,
    notifier,
    issuer: 'Berth',
    secrets,
    log: app.log,
  });
  const passwords = new PasswordService({
    db,
    clock,
    hasher,
    audit,
    sessions,
    mail: mailer,
    notifier,
    reauth,
    forgotIpThrottle: throttle(FORGOT_THROTTLES.ip),
    forgotEmailThrottle: throttle(FORGOT_THROTTLES.email),
    jobs,
    tenants,
    fallbackUrl,
  });
  const otp = new OtpService({
    db,
    clock,
    audit,
    mail: mailer,
    requestIpThrottle: throttle(OTP_THROTTLES.requestIp),
    requestEmailThrottle: throttle(OTP_THROTTLES.requestEmail),
    accountThrottle: throttle(OTP_THROTTLES.account),
    jobs,
    tenants,
    fallbackUrl,
  });
  const registration = new RegistrationService({
    db,
    clock,
    hasher,
    audit,
    mail: mailer,
    captcha,
    ipThrottle: throttle(REGISTRATION_THROTTLES.ip),
    verifyThrottle: throttle(REGISTRATION_THROTTLES.verify),
    resendThrottle: throttle(REGISTRATION_THROTTLES.resend),
    reauth,
    notifier,
    sessions,
    jobs,
    tenants,
    fallbackUrl,
  });
  const domainUserPasswords = new DomainUserPasswordService({
    db,
    clock,
    hasher,
    audit,
    uidThrottle: throttle(DOMAIN_USER_PASSWORD_THROTTLES.uid),
    ipThrottle: throttle(DOMAIN_USER_PASSWORD_THROTTLES.ip),
  });

  const avatars = new AvatarService(db, clock);
  const domains = new DomainDirectory(db, clock);

  await registerCompression(app);
  await app.register(cookie);
  await app.register(multipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 5 } });
  const realtime = new RealtimeHub(app, { sessions, tenants, trustProxy: config.TRUST_PROXY });
  if (config.REDIS_URL) await realtime.useRedis(config.REDIS_URL, config.REDIS_KEY_PREFIX, app.log);
  realtime.onChange(TENANTS_CHANGED, () => tenants.clear());
  await registerSecurityHeaders(app);
  const storage = new StorageWatch(db);
  registerErrorHandler(app, storage);
  const apiTokens = new ApiTokenService({ db, clock, audit });
  registerRequestContext(app, { tenants, sessions, tokens: apiTokens });
  registerCsrfProtection(app);
  registerInputGuard(app);
  await registerRateLimits(app, {
    redisUrl: config.REDIS_URL,
    keyPrefix: config.REDIS_KEY_PREFIX,
    log: app.log,
    enabled: config.RATE_LIMITS === 'on',
  });

  const impersonation = new ImpersonationService({ db, clock, sessions, audit, realtime });
  const expiry = new ExpiryReminders({ db, mailer, realtime, tenants, audit, log: app.log, fallbackUrl });
  const domainEditor = new DomainEditor({ db, clock, audit, directory: domains, secrets, events: webhooks });
  const dnsResolvers = config.DNS_RESOLVERS?.split(',') ?? [];
  const hosting = {
    domainListing: new DomainListing(db, clock),
    domainEditor,
    domainProof: new DomainProof({ db, audit, directory: domains, editor: domainEditor, resolvers: dnsResolvers }),
    domainUsers: new DomainUserAccounts({ db, clock, hasher, audit, domains }),
    autoreplies: new MailboxAutoreplies({ db, clock, audit, domains }),
    mailAliases: new MailAliases({ db, clock, audit, domains }),
    dns: new DnsService({ db, clock, audit, domains, secrets }),
    customers: new CustomerService({
      db,
      clock,
      hasher,
      audit,
      sessions,
      realtime,
      tenants,
      notifier,
      invitations: passwords,
      events: webhooks,
    }),
    tenantAdmin: new TenantAdministration({ db, clock, audit, sessions, realtime }),
  };
  const invoiceSettlement = new InvoiceSettlementService({ db, clock, audit, realtime, secrets, events: webhooks });
  const payments = createPayments({ db, clock, audit, config, fallbackUrl, log: app.log, settlement: invoiceSettlement });
  // Every way to pay, in one place: the credit balance here; the providers (bank
  // transfer, Stripe) come from createPayments above. New providers are appended to this list.
  const paymentProviders = new PaymentProviders([new CreditProvider(clock), ...payments.providers]);
  const invoices = new InvoiceReader(db);
  const shop = {
    catalogue: new ShopCatalogue({ db, clock, audit, providers: paymentProviders }),
    cart: new CartService({ db, clock, audit, realtime }),
    checkout: new CheckoutService({ db, clock, audit, realtime, providers: paymentProviders, invoices, secrets, events: webhooks }),
    credit: new CreditService({ db, clock, audit, providers: paymentProviders, invoices, secrets, events: webhooks }),
    promos: new PromoAdmin({ db, clock, audit }),
  };
  // Auto-renewal, dunning and suspension (main.ts runs its pass every hour).
  const billing = new Billing({
    db,
    clock,
    checkout: shop.checkout,
    providers: paymentProviders,
    mailer,
    realtime,
    tenants,
    audit,
    secrets,
    events: webhooks,
    jobs,
    cards: payments.cards,
    log: app.log,
    fallbackUrl,
  });

  // Every served domain's certificate by ACME (main.ts runs its pass every CERTIFICATES_EVERY_SECONDS).
  const certificates = new CertificateService({
    db,
    clock,
    secrets,
    acme: acmeSettingsOf(config),
    jobs,
    events: webhooks,
    mailer,
    realtime,
    tenants,
    audit,
    log: app.log,
    fallbackUrl,
    resolvers: dnsResolvers,
    platformNames: platformNames(config),
  });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Berth API', version: '0.1.0', description: 'Hosting and domain administration panel' },
      servers: [{ url: '/' }],
      components: { securitySchemes: OPENAPI_SECURITY_SCHEMES },
    },
    transform: (input) => withTokenScope(input, jsonSchemaTransform(input)),
  });
  // The docs UI's own policy (@fastify/swagger-ui's hashes of its scripts and styles): nothing from
  // elsewhere (no https: sources, no validator badge), and inline style attributes only, which the
  // UI sets through its markup and which cannot run code; scripts stay 'self' and hashed.
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    uiConfig: { validatorUrl: null },
    transformStaticCSP: (header) =>
      header
        .replace("font-src 'self' https: data:", "font-src 'self' data:")
        .replace("img-src 'self' data: validator.swagger.io", "img-src 'self' data:")
        .replace("style-src 'self' https:", `style-src-attr 'unsafe-inline'; style-src 'self' '${SWAGGER_UI_STYLE_HASH}'`),
  });

  await app.register(
    async (api) => {
      await api.register(healthRoutes(db, () => realtime.redisStatus(), storage));
      await api.register(tenantRoutes);
      await api.register(authRoutes(auth, sessions, realtime));
      await api.register(twoFactorRoutes(twoFactor, sessions));
      await api.register(passwordRoutes(passwords, sessions));
      await api.register(otpRoutes(otp, sessions));
      await api.register(registrationRoutes(registration, sessions));
      await api.register(captchaRoutes(captcha));
      await api.register(domainUserPasswordRoutes(domainUserPasswords));
      await api.register(sessionRoutes(sessions, audit));
      await api.register(userRoutes(new UserProfiles(db, clock, audit), avatars, impersonation));
      await api.register(languageRoutes);
      await api.register(menuRoutes());
      await api.register(cartRoutes(shop.cart, impersonation));
      await api.register(shopRoutes(shop.catalogue, shop.checkout, impersonation));
      await api.register(creditRoutes(shop.credit, impersonation));
      await api.register(
        invoiceRoutes({ invoices, pdfs: payments.pdfs, confirmation: payments.confirmation, actors: impersonation, billing }),
      );
      await api.register(promoRoutes(shop.promos, impersonation));
      await api.register(outboxRoutes(mailer), { prefix: '/system' });
      await api.register(serversRoutes(db), { prefix: '/system' });
      await api.register(jobsRoutes(new JobsAdmin(db, jobs)), { prefix: '/system' });
      await api.register(webhooksRoutes(webhooks, webhookRanges, impersonation), { prefix: '/system' });
      await api.register(domainRoutes(hosting.domainListing, hosting.domainEditor, hosting.domainProof, domains, impersonation));
      await api.register(domainUserAccountRoutes(hosting.domainUsers, hosting.autoreplies, impersonation));
      await api.register(mailAliasRoutes(hosting.mailAliases, impersonation));
      await api.register(hostingServicesRoutes(Boolean(config.DATABASE_URL), webmailUrl(config)));
      await api.register(dnsRoutes(hosting.dns, impersonation));
      await api.register(certificateRoutes(certificates, impersonation));
      await api.register(apiTokenRoutes(apiTokens, impersonation));
      await api.register(passkeyRoutes(new PasskeyService({ db, clock, audit, reauth, notifier }), sessions, audit));
      await api.register(securityRoutes(new SecuritySettingsService({ db, audit, realtime }), impersonation));
      await api.register(customerRoutes(hosting.customers, impersonation, impersonation));
      await api.register(impersonationRoutes(impersonation));
      await api.register(tenantAdminRoutes(hosting.tenantAdmin, payments, impersonation));
      await api.register(tenantLogoRoute(hosting.tenantAdmin));
      await api.register(auditRoutes(new AuditLogReader(db)));
      await api.register(dashboardRoutes(new DashboardService(db, clock, billing)));
      await api.register(notificationRoutes(new NotificationService(db, clock)));
      await api.register(payments.routes(impersonation));
    },
    { prefix: '/api' },
  );

  await registerWebApp(app, options.webDistDir ?? defaultWebDistDir, {
    signedIn: async (request) => {
      const token = readSessionCookie(request);
      if (!token) return undefined;
      const active = await sessions.resolveOn(token, (await tenants.forHost(request.headers.host)).id);
      if (active === undefined || active.session.twoFactorPending) return undefined;
      return { language: isLanguage(active.user.language) ? active.user.language : request.lang };
    },
    sign: (value) => secrets.sign('page-styles', value),
    hasSessionCookie: (request) => readSessionCookie(request) !== undefined,
    tenantOf: async (request) => toPublicTenant(await tenants.forHost(request.headers.host)),
  });
  // Every job kind is defined by now (the services' constructors): workers start.
  await jobs.start();
  app.addHook('onClose', async () => {
    await sessionCache?.close();
    await jobs.stop();
    await mailer.close();
  });
  return {
    app,
    services: {
      clock,
      hasher,
      sessions,
      tenants,
      audit,
      auth,
      mailer,
      jobs,
      twoFactor,
      realtime,
      impersonation,
      expiry,
      billing,
      certificates,
      dns: hosting.dns,
      mailLimits: new MailSendLimits({ db, clock, realtime }),
      secrets,
      paymentProviders,
      settlement: invoiceSettlement,
    },
  };
}
