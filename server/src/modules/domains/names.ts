import { domainToASCII, domainToUnicode } from 'node:url';

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const TLD = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/** An `xn--` label must be punycode that decodes, and encodes back to itself. */
const isValidALabel = (label: string): boolean => {
  const unicode = domainToUnicode(label);
  return unicode !== '' && unicode !== label && domainToASCII(unicode) === label;
};

/**
 * A registrable host name as stored: lower-case ASCII with IDN labels in punycode
 * (`Bücher.example` → `xn--bcher-kva.example`), or undefined when it is not a real host name:
 * at least two labels, letters/digits/hyphens, no IP addresses, 253 characters at most.
 */
export function toStoredDomainName(input: string): string | undefined {
  const trimmed = input.trim().replace(/\.$/, '');
  if (!trimmed || /\s/.test(trimmed)) return undefined;
  const ascii = domainToASCII(trimmed).toLowerCase();
  if (!ascii || ascii.length > 253) return undefined;
  const labels = ascii.split('.');
  if (labels.length < 2) return undefined;
  for (const label of labels) {
    if (!LABEL.test(label)) return undefined;
    if (label.startsWith('xn--') && !isValidALabel(label)) return undefined;
  }
  return TLD.test(labels[labels.length - 1] ?? '') ? ascii : undefined;
}

/** How people write the name (Unicode for IDN). */
export const displayDomainName = (stored: string): string => domainToUnicode(stored) || stored;

/**
 * A search term in the stored spelling, for a prefix match: lower-case, and IDN labels that are
 * complete (`bücher`, `bücher.ex`) in punycode. Undefined when no stored name can contain it.
 */
export function toSearchTerm(input: string): string | undefined {
  const lowered = input.trim().toLowerCase();
  const ascii = /[^\p{ASCII}]/u.test(lowered) ? domainToASCII(lowered.replace(/\.$/, '')) : lowered;
  return ascii && /^[a-z0-9.-]+$/.test(ascii) ? ascii : undefined;
}
