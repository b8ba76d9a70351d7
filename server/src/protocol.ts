/**
 * The custom protocol between the HCP Terraform language server and its clients, declared once.
 * The VS Code client imports this file; other editors can call the same methods by name.
 * Every method is namespaced `hcpTerraform/` and says who sends it to whom.
 */
import { RequestType0 } from 'vscode-languageserver-protocol';

/** What a client passes in `initializationOptions`. Both are optional: settings and the environment fill the gaps. */
export interface InitializationOptions {
  /** Service address, e.g. `https://app.terraform.io`. */
  address?: string;
  /** API token for that address. Never logged or echoed back. */
  token?: string;
}

export interface ServerStatus {
  /** The server's version (the extension's version). */
  version: string;
  /** The service address in use. */
  address: string;
  /** Whether a token is known for that address (never the token itself). */
  signedIn: boolean;
}

/** client → server: the server's identity and sign-in state; cheap, used as a health check. */
export const serverStatusRequest = new RequestType0<ServerStatus, void>('hcpTerraform/serverStatus');
