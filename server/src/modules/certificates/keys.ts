/**
 * Certificate keys are sealed under a key of their own (SecretBox.derive): the web servers' agents
 * are given it to write the files nginx reads (daemons/web.ts), and it opens nothing else.
 */
export const CERTIFICATE_KEYS_PURPOSE = 'certificate-keys';
