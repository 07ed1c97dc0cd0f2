import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A CA of a test (openssl, files in `dir`): a root, an intermediate it signs, and a leaf for `names`
 * the intermediate signs, naming `ocspUrl` as its OCSP responder when given.
 */
export async function ownChain(dir: string, names: string[], tag: string, ocspUrl?: string) {
  const file = (name: string) => path.join(dir, `${tag}-${name}`);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  await run('openssl', [
    'req',
    '-x509',
    ...ec,
    '-days',
    '30',
    '-subj',
    `/CN=Test Root ${tag}`,
    '-keyout',
    file('root.key'),
    '-out',
    file('root.crt'),
  ]);
  await run('openssl', ['req', ...ec, '-subj', `/CN=Test Intermediate ${tag}`, '-keyout', file('int.key'), '-out', file('int.csr')]);
  writeFileSync(file('int.ext'), 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n');
  await run('openssl', [
    'x509',
    '-req',
    '-in',
    file('int.csr'),
    '-CA',
    file('root.crt'),
    '-CAkey',
    file('root.key'),
    '-CAcreateserial',
    '-days',
    '30',
    '-extfile',
    file('int.ext'),
    '-out',
    file('int.crt'),
  ]);
  await run('openssl', ['req', ...ec, '-subj', `/CN=${names[0]}`, '-keyout', file('leaf.key'), '-out', file('leaf.csr')]);
  writeFileSync(
    file('leaf.ext'),
    `subjectAltName=${names.map((name) => `DNS:${name}`).join(',')}\n${ocspUrl ? `authorityInfoAccess=OCSP;URI:${ocspUrl}\n` : ''}`,
  );
  await run('openssl', [
    'x509',
    '-req',
    '-in',
    file('leaf.csr'),
    '-CA',
    file('int.crt'),
    '-CAkey',
    file('int.key'),
    '-CAcreateserial',
    '-days',
    '20',
    '-extfile',
    file('leaf.ext'),
    '-out',
    file('leaf.crt'),
  ]);
  const read = (name: string) => readFileSync(file(name), 'utf8');
  return {
    leaf: read('leaf.crt'),
    intermediate: read('int.crt'),
    root: read('root.crt'),
    key: read('leaf.key'),
    otherKey: read('int.key'),
  };
}
