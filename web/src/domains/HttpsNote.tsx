import { Text } from '@mantine/core';
import type { DomainStatus } from './types';

/**
 * What the API's `sslStatus` cannot say: Snip issues no certificates. Short links on a custom domain take the scheme
 * of the server's own address (BASE_URL, which this page is served from), so on an https:// server the proxy in front
 * of Snip needs a certificate for the domain, and only whoever runs the server can add one.
 */
export function HttpsNote({ domain, status }: { domain: string; status: DomainStatus }) {
  if (window.location.protocol !== 'https:') {
    return (
      <Text size="sm">
        <strong>HTTPS:</strong> not needed. This server's short links use http://, so links on {domain} do too and need no certificate.
      </Text>
    );
  }
  const proxy = 'the HTTPS proxy in front of this server (Caddy, nginx, a load balancer)';
  return (
    <Text size="sm">
      <strong>HTTPS certificate:</strong> Snip does not issue certificates.{' '}
      {status === 'active'
        ? `Short links on ${domain} use https://, so ${proxy} needs a certificate for ${domain}. If visitors see a certificate warning, whoever runs this server has yet to add it.`
        : `Short links on ${domain} will use https://, so whoever runs this server must give ${proxy} a certificate for ${domain} before the domain is used.`}
    </Text>
  );
}
