// The one-time notice for a file too large to analyse (hcpTerraform.analysis.maxFileSizeMB, default 2 MB): the
// editor keeps working on it as text, but it gets no variable analysis, so say so once, with the way out.
import path from 'node:path';
import { MessageType, type Connection } from 'vscode-languageserver';
import { showNotice } from '../connection/notices';

export function largeFileNotice(connection: Connection, log: (message: string) => void): (file: string, size: number) => void {
  const told = new Set<string>();
  return (file, size) => {
    if (told.has(file)) return;
    told.add(file);
    const megabytes = (size / (1024 * 1024)).toFixed(1);
    const message = `HCP Terraform: ${path.basename(file)} is ${megabytes} MB, over hcpTerraform.analysis.maxFileSizeMB, so it is not analysed (no variable diagnostics, hovers or declarations from it). Raise the setting to analyse it.`;
    log(message);
    showNotice(connection, MessageType.Warning, message);
  };
}
