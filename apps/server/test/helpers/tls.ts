/**
 * A throwaway self-signed certificate for loopback TLS servers in tests, made with the system's openssl
 * so tests need no certificate package.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface TlsKeyPair {
  /** PEM private key. */
  key: string;
  /** PEM certificate for CN=localhost, valid for localhost and 127.0.0.1. */
  cert: string;
}

let cached: TlsKeyPair | undefined;

/** One certificate per test process: generating it is the slow part and tests never need two. */
export function selfSignedCertificate(): TlsKeyPair {
  if (cached) return cached;
  const dir = mkdtempSync(path.join(tmpdir(), 'herald-tls-'));
  try {
    const keyFile = path.join(dir, 'key.pem');
    const certFile = path.join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        keyFile,
        '-out',
        certFile,
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
      ],
      { stdio: 'pipe' },
    );
    cached = { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8') };
    return cached;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
