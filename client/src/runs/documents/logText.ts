// Log text as the user should read it: the service's framing and terminal control bytes removed. Pure (no vscode).

/** ANSI escape sequences (colours, cursor moves) and the C0 control bytes other than newline and tab. */
const ansi = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;
const controls = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

export function cleanLogText(text: string): string {
  return text.replace(ansi, '').replace(/\r\n/g, '\n').replace(/\r/g, '\n').replace(controls, '');
}

/**
 * Structured run output (JSON lines with `@message`, as Terraform's `-json` UI writes them) as the lines a person
 * reads. The service's worker writes a few plain lines before Terraform's JSON ones, so each line is judged alone:
 * any line that is not such an object is kept as it is.
 */
export function renderLogLines(text: string): string {
  return text
    .split('\n')
    .map((line) => (line.startsWith('{') ? (messageOf(line) ?? line) : line))
    .join('\n');
}

function messageOf(line: string): string | undefined {
  try {
    const parsed = JSON.parse(line) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { '@message': message, diagnostic } = parsed as { '@message'?: unknown; diagnostic?: { detail?: unknown } };
    if (typeof message !== 'string') return undefined;
    // A diagnostic's message is only its summary: the detail says what to do about it.
    const detail = typeof diagnostic?.detail === 'string' && diagnostic.detail ? `\n\n${diagnostic.detail}\n` : '';
    return `${message}${detail}`;
  } catch {
    return undefined;
  }
}

/** The next wait while following a running log: 1 s, then ×1.5 while nothing new arrives, up to 5 s. */
export function nextPollMs(previousMs: number | undefined, gotText: boolean): number {
  if (previousMs === undefined || gotText) return 1_000;
  return Math.min(Math.round(previousMs * 1.5), 5_000);
}
