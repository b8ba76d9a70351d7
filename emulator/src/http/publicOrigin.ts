// The origin of every absolute URL the emulator hands out (upload URLs, log read URLs, json-output redirects, state
// download URLs, list links): the --public-url when one is set, else what a loopback proxy says it serves
// (X-Forwarded-Proto / X-Forwarded-Host, trusted from loopback peers only), else the scheme the emulator itself
// serves (https with --tls) and the Host the client addressed.
import type { IncomingMessage } from 'node:http';

export interface OriginSettings {
  /** `https://tfe.example.test:8443`: every absolute URL starts with this. */
  publicUrl?: string;
  /** Whether the emulator itself serves https. */
  tls: boolean;
}

export function requestUrl(req: IncomingMessage, settings: OriginSettings, fromLoopback: boolean): URL {
  const target = req.url?.startsWith('/') ? req.url : `/${req.url ?? ''}`;
  const origin = publicOrigin(req, settings, fromLoopback);
  try {
    return new URL(`${origin}${target}`);
  } catch {
    return new URL(`${origin}${target.replace(/[^\x21-\x7e]/g, '')}`);
  }
}

function publicOrigin(req: IncomingMessage, settings: OriginSettings, fromLoopback: boolean): string {
  if (settings.publicUrl) return new URL(settings.publicUrl).origin;
  const forwardedProto = fromLoopback ? first(req.headers['x-forwarded-proto']) : undefined;
  const forwardedHost = fromLoopback ? first(req.headers['x-forwarded-host']) : undefined;
  const scheme = forwardedProto === 'https' || forwardedProto === 'http' ? forwardedProto : settings.tls ? 'https' : 'http';
  const host = validHost(forwardedHost) ?? validHost(req.headers.host) ?? 'localhost';
  return `${scheme}://${host}`;
}

function first(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text?.split(',')[0]?.trim() || undefined;
}

/** A Host value that parses as one (`example.com`, `127.0.0.1:8443`, `[::1]:80`); anything else is ignored. */
function validHost(host: string | undefined): string | undefined {
  if (!host) return undefined;
  try {
    const parsed = new URL(`http://${host}`);
    return parsed.host === host.toLowerCase() || parsed.host === host ? host : undefined;
  } catch {
    return undefined;
  }
}
