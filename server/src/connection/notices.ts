// Tells the user something that needs no answer: window/showMessage, a notification every LSP client shows. Not
// connection.window.show*Message, which is window/showMessageRequest: Neovim answers that with a blocking prompt
// ("Type number and <Enter>") even when it offers no choice, which froze a headless Neovim at startup.
import { ShowMessageNotification, type Connection, type MessageType } from 'vscode-languageserver';

export function showNotice(connection: Pick<Connection, 'sendNotification'>, type: MessageType, message: string): void {
  // A connection already closed (the editor went away) has no one to tell: vscode-jsonrpc throws at once then, and
  // a notice must never turn what it reports (a command that succeeded) into a failure.
  try {
    void Promise.resolve(connection.sendNotification(ShowMessageNotification.type, { type, message })).catch(() => undefined);
  } catch {
    // nothing to do
  }
}
