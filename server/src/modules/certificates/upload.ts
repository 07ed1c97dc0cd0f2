import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { rootCertificates } from 'node:tls';
import { fieldError } from '../../http/errors.ts';

/** A certificate of the customer's own, checked: what is stored of it. */
export interface UploadedCertificate {
  certPem: string;
  keyPem: string;
  names: string[];
  issuer: string;
  serial: string;
  notBefore: Date;
  notAfter: Date;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[A-Za-z0-9+/=\s]+?-----END CERTIFICATE-----/g;
let roots: X509Certificate[] | undefined;
const trustedRoots = () => (roots ??= rootCertificates.map((pem) => new X509Certificate(pem)));
const commonName = (dn: string) => /(?:^|\n)CN=([^\n]+)/.exec(dn)?.[1] ?? dn.split('\n')[0] ?? dn;

/**
 * Checks an uploaded chain and key as a web server would need them, and says on the field what
 * is wrong: a key that parses and belongs to the first certificate; each certificate signed by the
 * next, and the last one a root (self-signed) or issued by a root this machine trusts (the chain is
 * complete); the domain among its names; valid at `now`.
 */
export function checkUpload(input: { certificate: string; private_key: string }, domain: string, now: Date): UploadedCertificate {
  const blocks = input.certificate.match(PEM_CERTIFICATE) ?? [];
  if (blocks.length === 0) throw fieldError('certificate', 'certificates.pem_invalid');
  let chain: X509Certificate[];
  try {
    chain = blocks.map((block) => new X509Certificate(block));
  } catch {
    throw fieldError('certificate', 'certificates.pem_invalid');
  }
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: input.private_key, format: 'pem' });
  } catch {
    throw fieldError('private_key', 'certificates.key_invalid');
  }
  const leaf = chain[0]!;
  if (!leaf.checkPrivateKey(key)) throw fieldError('private_key', 'certificates.key_mismatch');
  for (const [i, certificate] of chain.entries()) {
    const issuer = chain[i + 1];
    if (issuer) {
      if (!certificate.checkIssued(issuer) || !certificate.verify(issuer.publicKey))
        throw fieldError('certificate', 'certificates.chain_broken', { subject: commonName(certificate.subject) });
    } else {
      const selfSigned = certificate.checkIssued(certificate) && certificate.verify(certificate.publicKey);
      const byTrustedRoot = trustedRoots().some((root) => certificate.checkIssued(root) && certificate.verify(root.publicKey));
      if (!selfSigned && !byTrustedRoot)
        throw fieldError('certificate', 'certificates.chain_incomplete', { issuer: commonName(certificate.issuer) });
    }
  }
  if (leaf.checkHost(domain) === undefined) throw fieldError('certificate', 'certificates.names_missing', { domain });
  const notBefore = new Date(leaf.validFrom);
  const notAfter = new Date(leaf.validTo);
  if (notAfter <= now) throw fieldError('certificate', 'certificates.expired', { date: notAfter.toISOString().slice(0, 10) });
  if (notBefore > now) throw fieldError('certificate', 'certificates.not_yet_valid', { date: notBefore.toISOString().slice(0, 10) });
  const names = (leaf.subjectAltName ?? '')
    .split(', ')
    .filter((entry) => entry.startsWith('DNS:'))
    .map((entry) => entry.slice(4));
  return {
    certPem: `${blocks.join('\n')}\n`,
    keyPem: key.export({ type: 'pkcs8', format: 'pem' }).toString(),
    names: names.length ? names : [domain],
    issuer: commonName(leaf.issuer),
    serial: leaf.serialNumber,
    notBefore,
    notAfter,
  };
}
