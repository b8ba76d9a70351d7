// Reads the client's configuration: initializationOptions and the `hcpTerraform` settings section. Wrong values
// are dropped with a warning that says what to enter, never a crash: a half-configured editor still gets the
// features that need no service.
import type { HcpTerraformSettings, InitializationOptions } from '../protocol';
import type { ServiceLinkOverride } from '../model';
import { comparableHost } from '../auth/tokens';

export const defaultAddress = 'https://app.terraform.io';

export interface ParsedSettings {
  address?: string;
  /** `hcpTerraform.tls.caFile`: a PEM file of a private CA to trust. */
  caFile?: string;
  /** `hcpTerraform.planOverlay.enabled`; undefined when the section does not say. */
  planOverlayEnabled?: boolean;
  /** `hcpTerraform.analysis.maxFileSizeMB` in characters; undefined when the section does not say. */
  maxFileSize?: number;
  override: ServiceLinkOverride;
}

/** Files larger than this (2 MB) get no analysis unless the setting says otherwise. */
export const defaultMaxFileSize = 2 * 1024 * 1024;

export interface ParseResult<T> {
  value: T;
  /** One sentence per ignored value, for window/logMessage. Never contains a token. */
  warnings: string[];
}

/** Keeps only well-typed options; the token is never quoted in a warning. */
export function readInitializationOptions(raw: unknown): ParseResult<InitializationOptions> {
  const warnings: string[] = [];
  if (raw === undefined || raw === null) return { value: {}, warnings };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return { value: {}, warnings: ['initializationOptions must be an object like {"address": "https://app.terraform.io", "token": "..."}; ignored.'] };
  }
  const { address, token, prompts } = raw as Record<string, unknown>;
  const value: InitializationOptions = {};
  const checkedAddress = readAddress(address, 'initializationOptions.address', warnings);
  if (checkedAddress) value.address = checkedAddress;
  const addressRefused = address !== undefined && address !== null && address !== '' && !checkedAddress;
  if (typeof token === 'string' && token.trim().length > 0) {
    // The token belongs to the address it came with: with that address refused it would go to the default service.
    if (addressRefused) warnings.push('initializationOptions.token is ignored too: it goes with that address, and a token is sent to no other host. Fix the address and restart the language server.');
    else value.token = token.trim();
  } else if (token !== undefined && token !== null && token !== '') warnings.push('initializationOptions.token must be a string; ignored.');
  if (typeof prompts === 'object' && prompts !== null && !Array.isArray(prompts)) {
    const { trustHost, variableValue, signIn, changeRequestSubject, commandOutcomes, confirmations } = prompts as Record<string, unknown>;
    value.prompts = {
      trustHost: trustHost === true,
      variableValue: variableValue === true,
      signIn: signIn === true,
      changeRequestSubject: changeRequestSubject === true,
      commandOutcomes: commandOutcomes === true,
      confirmations: confirmations === true,
    };
  } else if (prompts !== undefined && prompts !== null) warnings.push('initializationOptions.prompts must be an object like {"trustHost": true}; ignored.');
  return { value, warnings };
}

/** The `hcpTerraform` section as workspace/configuration returns it (any shape: users edit it by hand). */
export function readSettings(raw: unknown): ParseResult<ParsedSettings> {
  const warnings: string[] = [];
  const value: ParsedSettings = { override: {} };
  if (raw === undefined || raw === null) return { value, warnings };
  if (typeof raw !== 'object' || Array.isArray(raw)) return { value, warnings: ['The hcpTerraform settings must be an object; ignored.'] };
  const settings = raw as Record<string, unknown>;
  const address = readAddress(settings.address, 'hcpTerraform.address', warnings);
  if (address) value.address = address;
  const tls = settings.tls as { caFile?: unknown } | undefined | null;
  if (tls !== undefined && tls !== null) {
    const caFile = typeof tls === 'object' ? tls.caFile : undefined;
    if (typeof caFile === 'string' && caFile.trim()) value.caFile = caFile.trim();
    else if (caFile !== undefined && caFile !== null && caFile !== '') warnings.push('hcpTerraform.tls.caFile must be the path of a PEM file; ignored.');
  }
  const planOverlay = settings.planOverlay as { enabled?: unknown } | undefined | null;
  if (planOverlay !== undefined && planOverlay !== null) {
    const enabled = typeof planOverlay === 'object' ? planOverlay.enabled : undefined;
    if (typeof enabled === 'boolean') value.planOverlayEnabled = enabled;
    else if (enabled !== undefined && enabled !== null) warnings.push('hcpTerraform.planOverlay.enabled must be true or false; ignored.');
  }
  const analysis = settings.analysis as { maxFileSizeMB?: unknown } | undefined | null;
  if (analysis !== undefined && analysis !== null) {
    const megabytes = typeof analysis === 'object' ? analysis.maxFileSizeMB : undefined;
    if (typeof megabytes === 'number' && Number.isFinite(megabytes) && megabytes > 0) value.maxFileSize = Math.round(megabytes * 1024 * 1024);
    else if (megabytes !== undefined && megabytes !== null) warnings.push('hcpTerraform.analysis.maxFileSizeMB must be a number of megabytes above 0; ignored.');
  }
  const workspace = settings.workspace;
  if (workspace !== undefined && workspace !== null) {
    if (typeof workspace !== 'object' || Array.isArray(workspace)) {
      warnings.push('hcpTerraform.workspace must be an object like {"organization": "acme", "name": "app"}; ignored.');
    } else {
      const fields = workspace as NonNullable<HcpTerraformSettings['workspace']> & Record<string, unknown>;
      const text = (name: 'hostname' | 'organization' | 'name' | 'project'): string | undefined => {
        const field = fields[name];
        if (field === undefined || field === null || field === '') return undefined;
        if (typeof field === 'string' && field.trim() !== '') return field.trim();
        warnings.push(`hcpTerraform.workspace.${name} must be a non-empty string; ignored.`);
        return undefined;
      };
      const hostname = text('hostname');
      if (hostname && !isHostname(hostname)) warnings.push(`hcpTerraform.workspace.hostname "${hostname}" is not a host name (e.g. app.terraform.io); ignored.`);
      else if (hostname) value.override.hostname = hostname.toLowerCase();
      const organization = text('organization');
      if (organization) value.override.organization = organization;
      const name = text('name');
      if (name) value.override.workspace = name;
      const project = text('project');
      if (project) value.override.project = project;
    }
  }
  return { value, warnings };
}

function readAddress(raw: unknown, what: string, warnings: string[]): string | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw !== 'string') {
    warnings.push(`${what} must be a URL such as https://app.terraform.io; ignored.`);
    return undefined;
  }
  const normalized = normalizeAddress(raw);
  if (!normalized) warnings.push(refusedAddress(what, raw));
  return normalized;
}

/**
 * Why an address was refused, quoting only what cannot be a secret: a token pasted into the address field, or one in
 * its credentials or query string, must not reach a notification or the client's log file. A host name without a
 * scheme (Terraform's `hostname` has none: the usual slip) is quoted with the URL to write instead.
 */
function refusedAddress(what: string, raw: string): string {
  const value = raw.trim();
  if (looksLikeHostName(value)) return `${what} "${value}" is not a service address: enter a URL such as https://${value}; ignored.`;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url && url.hostname && looksLikeHostName(url.host)) {
    const credentials = url.username || url.password ? '[redacted]@' : '';
    return `${what} "${url.protocol}//${credentials}${url.host}…" is not a service address: enter a URL such as https://app.terraform.io (https or http, without credentials); ignored.`;
  }
  return `${what} is not a service address (its value is not repeated here, in case it is a secret): enter a URL such as https://app.terraform.io; ignored.`;
}

/** A DNS name (its last label letters only), `localhost` or an IPv4 address, with an optional port: never a token's shape. */
function looksLikeHostName(value: string): boolean {
  const match = /^([a-z0-9-]+(?:\.[a-z0-9-]+)*)(?::\d{1,5})?$/i.exec(value);
  if (!match) return false;
  const labels = match[1]!.split('.');
  if (labels.some((label) => label.length === 0 || label.length > 63)) return false;
  const last = labels[labels.length - 1]!;
  return value.length <= 100 && (labels.length === 1 ? last.toLowerCase() === 'localhost' : /^[a-z]{2,24}$/i.test(last) || labels.every((label) => /^\d{1,3}$/.test(label)));
}

/** `https://host[:port][/prefix]` without a trailing slash, query or credentials; undefined when it is not one. */
export function normalizeAddress(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || !url.hostname) return undefined;
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

/** The host key of an address: host name and port as Terraform names hosts (`app.terraform.io`, `localhost:8080`). */
export function hostOfAddress(address: string): string {
  return comparableHost(new URL(address).host);
}

function isHostname(value: string): boolean {
  return /^[^\s/:@]+(:\d{1,5})?$/.test(value);
}
