// Asks the user whether a host the workspace named may get their token: hcpTerraform/trustHost where the client
// declared it can (VS Code shows a modal), else window/showMessageRequest, which every LSP editor shows.
import type { Connection } from 'vscode-languageserver';
import { trustHostRequest } from '../protocol';

const trustTitle = 'Trust';
const declineTitle = 'Do not trust';

export function trustQuestion(host: string, address: string): string {
  return `This workspace names the service ${address} (in a cloud block or its settings), which is not your configured address. Send your API token for ${host} there?`;
}

export async function askToTrustHost(connection: Connection, host: string, address: string, clientHasPrompt: boolean): Promise<boolean> {
  const message = trustQuestion(host, address);
  if (clientHasPrompt) {
    const answer = await connection.sendRequest(trustHostRequest, { hostname: host, address, message });
    return answer?.trusted === true;
  }
  const choice = await connection.window.showWarningMessage(`HCP Terraform: ${message}`, { title: trustTitle }, { title: declineTitle });
  return choice?.title === trustTitle;
}
