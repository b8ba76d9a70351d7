/** The first line of a run message, cut to fit a code lens or an action title. */
export function shorten(message: string): string {
  const line = message.split(/\r?\n/)[0]!;
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
