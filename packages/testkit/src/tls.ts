import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export interface TlsMaterial {
  caFile: string;
  cert: string;
  key: string;
}

/**
 * A private CA and a `localhost` / 127.0.0.1 server certificate for test receivers, made once with
 * openssl. The dispatcher trusts the CA through NODE_EXTRA_CA_CERTS, set by scripts/test.sh before
 * any Node process of the run starts (Node reads it only at start-up). `caName` gives another CA (a
 * receiver of the partner's own CA) in another directory.
 */
export function ensureTestTls(dir: string, options: { caName?: string } = {}): TlsMaterial {
  const caName = options.caName ?? 'travel-expense test CA';
  mkdirSync(dir, { recursive: true });
  const f = (name: string) => join(dir, name);
  // Regenerated when the names it must cover change (the marker file names them).
  const names = 'localhost hooks.partner.test 127.0.0.1';
  if (!existsSync(f('server.crt')) || !existsSync(f(names.replace(/ /g, '_')))) {
    const run = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
    run(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      f('ca.key'),
      '-out',
      f('ca.crt'),
      '-days',
      '3650',
      '-subj',
      `/CN=${caName}`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    );
    run(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      f('server.key'),
      '-out',
      f('server.csr'),
      '-subj',
      '/CN=localhost',
    );
    writeFileSync(
      f('server.ext'),
      'subjectAltName=DNS:localhost,DNS:hooks.partner.test,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n',
    );
    writeFileSync(f(names.replace(/ /g, '_')), '');
    run(
      'x509',
      '-req',
      '-in',
      f('server.csr'),
      '-CA',
      f('ca.crt'),
      '-CAkey',
      f('ca.key'),
      '-CAcreateserial',
      '-out',
      f('server.crt'),
      '-days',
      '825',
      '-extfile',
      f('server.ext'),
    );
  }
  return {
    caFile: f('ca.crt'),
    cert: readFileSync(f('server.crt'), 'utf8'),
    key: readFileSync(f('server.key'), 'utf8'),
  };
}

/**
 * `NODE_EXTRA_CA_CERTS` for a process (the local dispatcher) that must trust both the local CA and the
 * CA file the user already gave Node through `NODE_EXTRA_CA_CERTS` (mkcert, a company CA). Node reads a
 * single file, so with a user file this writes `bundleFile`: the user's certificates, then the local CA.
 * A user file that cannot be read or holds no PEM certificate is left out with a warning to show.
 */
export function extraCaCertsEnv(
  localCaFile: string,
  userCaFile: string | undefined,
  bundleFile: string,
): { NODE_EXTRA_CA_CERTS: string; warning?: string } {
  if (!userCaFile || resolve(userCaFile) === resolve(localCaFile) || resolve(userCaFile) === resolve(bundleFile))
    return { NODE_EXTRA_CA_CERTS: localCaFile };
  let user: string;
  try {
    user = readFileSync(userCaFile, 'utf8');
  } catch (err) {
    return {
      NODE_EXTRA_CA_CERTS: localCaFile,
      warning: `NODE_EXTRA_CA_CERTS=${userCaFile} cannot be read (${(err as Error).message}); trusting only the local CA`,
    };
  }
  if (!user.includes('-----BEGIN CERTIFICATE-----'))
    return {
      NODE_EXTRA_CA_CERTS: localCaFile,
      warning: `NODE_EXTRA_CA_CERTS=${userCaFile} holds no PEM certificate; trusting only the local CA`,
    };
  const local = readFileSync(localCaFile, 'utf8');
  mkdirSync(dirname(bundleFile), { recursive: true });
  writeFileSync(bundleFile, `${user.trimEnd()}\n${local.trimEnd()}\n`);
  return { NODE_EXTRA_CA_CERTS: bundleFile };
}
