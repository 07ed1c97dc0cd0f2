import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent } from 'node:https';
import { rootCertificates } from 'node:tls';
import { AsnConvert } from '@peculiar/asn1-schema';
import { AuthorityKeyIdentifier, Certificate as CertificateAsn, id_ce_authorityKeyIdentifier } from '@peculiar/asn1-x509';
import acme from 'acme-client';

const getJson = (url: string) => acme.axios.get<unknown>(url, { validateStatus: () => true, timeout: 10_000 });

/** Where certificates come from: a CA's ACME directory and the platform's contact there. */
export interface AcmeSettings {
  directoryUrl: string;
  email: string | undefined;
  /** External Account Binding, for CAs that require it (ZeroSSL and others). */
  eab: { kid: string; hmacKey: string } | undefined;
  /** Roots the directory's own HTTPS is checked against besides the system's (a test CA's, e.g. Pebble's). */
  caFile: string | undefined;
}

/** A DNS-01 answer to publish: the TXT record's name relative to the zone and its value. */
export interface DnsAnswer {
  name: string;
  token: string;
}

/** An HTTP-01 answer to hand out: the token in the path and the key authorization the CA expects. */
export interface HttpAnswer {
  /** The name the CA asks about. */
  name: string;
  token: string;
  keyAuthorization: string;
}

export interface IssuedCertificate {
  /** The leaf and its chain, PEM. */
  certPem: string;
  keyPem: string;
  issuer: string;
  serial: string;
  notBefore: Date;
  notAfter: Date;
}

/** When the CA suggests renewing a certificate (RFC 9773), and when to ask it again. */
export interface RenewalWindow {
  start: Date;
  end: Date;
  /** The CA's Retry-After, in seconds (6 hours when it gave none). */
  retryAfterSeconds: number;
}

/**
 * A certificate's identifier in ACME Renewal Information (RFC 9773 §4.1): the authority key
 * identifier of its issuer and its serial number (the DER integer's bytes), each base64url, joined
 * by a dot. Null for a certificate without an authority key identifier.
 */
export function renewalInfoId(certPem: string): string | null {
  const parsed = AsnConvert.parse(new X509Certificate(certPem).raw, CertificateAsn);
  const extension = parsed.tbsCertificate.extensions?.find((candidate) => candidate.extnID === id_ce_authorityKeyIdentifier);
  const keyId = extension ? AsnConvert.parse(extension.extnValue, AuthorityKeyIdentifier).keyIdentifier : undefined;
  if (!keyId) return null;
  return `${Buffer.from(keyId.buffer).toString('base64url')}.${Buffer.from(parsed.tbsCertificate.serialNumber).toString('base64url')}`;
}

/** Thrown with the CA's own words (its problem document's detail) when an order fails. */
export class AcmeProblem extends Error {}

let trusted: string | undefined;

/**
 * The few ACME steps Berth takes, through acme-client: register the platform's account once, and
 * order a certificate whose names are proven by DNS-01 answers that `publish` puts into Berth's own
 * zone (and `unpublish` takes out again, whatever happens).
 */
export class AcmeCa {
  private readonly settings: AcmeSettings;

  constructor(settings: AcmeSettings) {
    this.settings = settings;
    if (settings.caFile && trusted !== settings.caFile) {
      // acme-client's one HTTP client: the extra roots apply to its requests only, never to the process.
      acme.axios.defaults.httpsAgent = new Agent({ ca: [...rootCertificates, readFileSync(settings.caFile, 'utf8')] });
      trusted = settings.caFile;
    }
  }

  /** A new account key and its registration at the CA (terms agreed on the operator's behalf by configuring the CA). */
  async register(): Promise<{ keyPem: string; accountUrl: string }> {
    const key = await acme.crypto.createPrivateEcdsaKey('P-256');
    const client = this.client(key.toString(), undefined);
    await client.createAccount({
      termsOfServiceAgreed: true,
      ...(this.settings.email ? { contact: [`mailto:${this.settings.email}`] } : {}),
    });
    return { keyPem: key.toString(), accountUrl: client.getAccountUrl() };
  }

  /**
   * Orders a certificate for `names` (all in `zone`, wildcards allowed), proven by DNS-01. The
   * CA's problem, if any, is thrown as an AcmeProblem.
   */
  async orderByDns(
    account: { keyPem: string; accountUrl: string },
    zone: string,
    names: string[],
    publish: (answer: DnsAnswer) => Promise<number>,
    unpublish: (id: number) => Promise<void>,
    replacing?: string | null,
  ): Promise<IssuedCertificate> {
    return this.order(
      account,
      names,
      'dns-01',
      async (host, token) => {
        const below = host === zone ? '' : host.slice(0, -(zone.length + 1));
        if (host !== zone && !host.endsWith(`.${zone}`)) throw new AcmeProblem(`${host} is not in ${zone}.`);
        return publish({ name: below ? `_acme-challenge.${below}` : '_acme-challenge', token });
      },
      unpublish,
      replacing,
    );
  }

  /**
   * Orders a certificate for `names` (no wildcards) proven by HTTP-01: `publish` stores the token
   * and key authorization that the site's web server hands out at
   * `/.well-known/acme-challenge/<token>` (agent/src/acme-challenges.ts).
   */
  async orderByHttp(
    account: { keyPem: string; accountUrl: string },
    names: string[],
    publish: (answer: HttpAnswer) => Promise<number>,
    unpublish: (id: number) => Promise<void>,
    replacing?: string | null,
  ): Promise<IssuedCertificate> {
    return this.order(
      account,
      names,
      'http-01',
      (host, keyAuthorization, token) => publish({ name: host, token, keyAuthorization }),
      unpublish,
      replacing,
    );
  }

  private async order(
    account: { keyPem: string; accountUrl: string },
    names: string[],
    type: 'dns-01' | 'http-01',
    publish: (host: string, answer: string, token: string) => Promise<number>,
    unpublish: (id: number) => Promise<void>,
    replacing?: string | null,
  ): Promise<IssuedCertificate> {
    const client = this.client(account.keyPem, account.accountUrl);
    // A renewal names the certificate it replaces (RFC 9773 §5) where the CA offers renewal
    // information; a CA that will not take it for this certificate (replaced already, unknown to
    // it) gets the same order without it.
    const replaces = replacing ? await this.replacesId(replacing) : null;
    if (replaces) {
      const createOrder = client.createOrder.bind(client);
      client.createOrder = (payload) => createOrder({ ...payload, replaces } as typeof payload).catch(() => createOrder(payload));
    }
    const [key, csr] = await acme.crypto.createCsr(
      { commonName: names[0]!, altNames: names },
      await acme.crypto.createPrivateEcdsaKey('P-256'),
    );
    const published = new Map<string, number>();
    let certPem: string;
    try {
      certPem = await client.auto({
        csr,
        challengePriority: [type],
        // The answer is Berth's own (its zone, or its web server), in place the moment it is
        // written: nothing to wait for, and the CA asks the name's servers, not this machine's resolver.
        skipChallengeVerification: true,
        termsOfServiceAgreed: true,
        challengeCreateFn: async (authz, challenge, answer) => {
          if (challenge.type !== type) throw new AcmeProblem(`The CA offered no ${type} challenge for ${authz.identifier.value}.`);
          const id = await publish(authz.identifier.value, answer, challenge.token);
          published.set(`${authz.url} ${answer}`, id);
        },
        challengeRemoveFn: async (authz, _challenge, answer) => {
          const id = published.get(`${authz.url} ${answer}`);
          if (id !== undefined) await unpublish(id);
        },
      });
    } catch (error) {
      if (error instanceof AcmeProblem) throw error;
      throw new AcmeProblem(error instanceof Error ? error.message : String(error));
    }
    const leaf = new X509Certificate(certPem);
    const info = acme.crypto.readCertificateInfo(certPem);
    return {
      certPem,
      keyPem: key.toString(),
      issuer: info.issuer.commonName || leaf.issuer,
      serial: leaf.serialNumber,
      notBefore: info.notBefore,
      notAfter: info.notAfter,
    };
  }

  /** The renewal information identifier of `certPem` when the CA offers renewal information; else null. */
  private async replacesId(certPem: string): Promise<string | null> {
    const offered = await this.renewalInfoBase().catch(() => null);
    return offered ? renewalInfoId(certPem) : null;
  }

  /**
   * Where the CA answers ACME Renewal Information (RFC 9773), or null when its directory offers
   * none (Debian's Pebble 2.4 does not). Asked once per pass, not once per certificate.
   */
  async renewalInfoBase(): Promise<string | null> {
    const directory = await getJson(this.settings.directoryUrl);
    const base = (directory.data as { renewalInfo?: unknown } | null)?.renewalInfo;
    if (directory.status !== 200) throw new AcmeProblem(`The CA's directory answered ${directory.status}.`);
    return typeof base === 'string' ? base.replace(/\/+$/, '') : null;
  }

  /** The CA's suggested renewal window for a certificate it issued, from `renewalInfoBase`'s address. */
  async renewalInfo(base: string, certPem: string): Promise<RenewalWindow | null> {
    const id = renewalInfoId(certPem);
    if (!id) return null;
    const answer = await getJson(`${base}/${id}`);
    const window = (answer.data as { suggestedWindow?: { start?: unknown; end?: unknown } } | null)?.suggestedWindow;
    const start = new Date(String(window?.start));
    const end = new Date(String(window?.end));
    if (answer.status !== 200 || Number.isNaN(start.getTime()) || Number.isNaN(end.getTime()) || end < start)
      throw new AcmeProblem(`The CA's renewal information for ${id} answered ${answer.status} without a usable window.`);
    const retryAfter = Number(answer.headers['retry-after']);
    return { start, end, retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 6 * 60 * 60 };
  }

  /**
   * Revokes a certificate this account ordered, for reason 5 (cessationOfOperation: its domain is
   * gone). One the CA already revoked counts as done.
   */
  async revoke(account: { keyPem: string; accountUrl: string }, certPem: string): Promise<void> {
    const client = this.client(account.keyPem, account.accountUrl);
    try {
      await client.revokeCertificate(certPem, { reason: 5 });
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      if (/already revoked/i.test(text)) return;
      throw new AcmeProblem(text);
    }
  }

  private client(keyPem: string, accountUrl: string | undefined) {
    return new acme.Client({
      directoryUrl: this.settings.directoryUrl,
      accountKey: keyPem,
      ...(accountUrl ? { accountUrl } : {}),
      ...(this.settings.eab ? { externalAccountBinding: this.settings.eab } : {}),
      // Polls for a validation's result: from 1 s up to 10 s apart, about a minute in all.
      backoffAttempts: 10,
      backoffMin: 1000,
      backoffMax: 10_000,
    });
  }
}
