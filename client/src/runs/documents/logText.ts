// Log text as the user should read it: the service's framing and terminal control bytes removed. Pure (no vscode).

/** ANSI escape sequences (colours, cursor moves) and the C0 control bytes other than newline and tab. */
const ansi = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;
const controls = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

export function cleanLogText(text: string): string {
  return text.replace(ansi, '').replace(/\r\n/g, '\n').replace(/\r/g, '\n').replace(controls, '');
}

/**
 * Structured run output (JSON lines with `@message`, as Terraform's `-json` UI writes them) as the lines a person
 * reads; any other line is kept as it is. A log is structured when its first non-empty line is such an object.
 */
export function renderLogLines(text: string): string {
  const lines = text.split('\n');
  const first = lines.find((line) => line.trim().length > 0);
  if (!first || !isStructured(first)) return text;
  return lines
    .map((line) => {
      if (!line.trim()) return line;
      try {
        const parsed = JSON.parse(line) as { '@message'?: unknown };
        return typeof parsed['@message'] === 'string' ? parsed['@message'] : line;
      } catch {
        return line;
      }
    })
    .join('\n');
}

function isStructured(line: string): boolean {
  try {
    const parsed = JSON.parse(line) as unknown;
    return typeof parsed === 'object' && parsed !== null && typeof (parsed as { '@message'?: unknown })['@message'] === 'string';
  } catch {
    return false;
  }
}

/** The next wait while following a running log: 1 s, then ×1.5 while nothing new arrives, up to 5 s. */
export function nextPollMs(previousMs: number | undefined, gotText: boolean): number {
  if (previousMs === undefined || gotText) return 1_000;
  return Math.min(Math.round(previousMs * 1.5), 5_000);
}
