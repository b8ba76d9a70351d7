// The part of the `vscode` API the client's views use, for unit tests that run them without an editor: events that
// really fire, tree items that keep what they were given, and a log that keeps its lines (tests read them to check
// that no token is ever written).

export class Disposable {
  constructor(private readonly onDispose: () => void = () => undefined) {}
  static from(...disposables: Array<{ dispose(): unknown }>): Disposable {
    return new Disposable(() => disposables.forEach((d) => d.dispose()));
  }
  dispose(): void {
    this.onDispose();
  }
}

export type Event<T> = (listener: (value: T) => unknown) => Disposable;

export class EventEmitter<T> {
  private listeners = new Set<(value: T) => unknown>();
  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return new Disposable(() => this.listeners.delete(listener));
  };
  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }
  dispose(): void {
    this.listeners.clear();
  }
}

export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

export class ThemeIcon {
  constructor(
    readonly id: string,
    readonly color?: ThemeColor,
  ) {}
}

export class MarkdownString {
  isTrusted = false;
  supportHtml = false;
  constructor(
    public value = '',
    readonly supportThemeIcons = false,
  ) {}
  appendText(text: string): this {
    this.value += text;
    return this;
  }
  appendMarkdown(markdown: string): this {
    this.value += markdown;
    return this;
  }
}

export class TreeItem {
  id?: string;
  description?: string;
  tooltip?: string | MarkdownString;
  iconPath?: ThemeIcon;
  contextValue?: string;
  command?: { command: string; title: string; arguments?: unknown[] };
  accessibilityInformation?: { label: string };
  constructor(
    readonly label: string,
    readonly collapsibleState: TreeItemCollapsibleState = TreeItemCollapsibleState.None,
  ) {}
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
    readonly query: string,
  ) {}
  static parse(text: string): Uri {
    const url = new URL(text);
    return new Uri(url.protocol.replace(/:$/, ''), url.host, decodeURIComponent(url.pathname), url.search.replace(/^\?/, ''));
  }
  static from(parts: { scheme: string; authority?: string; path?: string; query?: string }): Uri {
    return new Uri(parts.scheme, parts.authority ?? '', parts.path ?? '', parts.query ?? '');
  }
  toString(): string {
    return `${this.scheme}://${this.authority}${this.path}${this.query ? `?${this.query}` : ''}`;
  }
}

/** Every line the extension logged, by level. */
export const logged: Array<{ level: string; text: string }> = [];
const logAt = (level: string) => (text: string) => void logged.push({ level, text });

/** Every status bar message set, in order. */
export const statusBarMessages: string[] = [];

export enum ProgressLocation {
  SourceControl = 1,
  Window = 10,
  Notification = 15,
}

export const window = {
  showTextDocument: async (document: FakeTextDocument) => document,
  createOutputChannel: () => ({ trace: logAt('trace'), debug: logAt('debug'), info: logAt('info'), warn: logAt('warn'), error: logAt('error'), appendLine: logAt('info'), dispose: () => undefined }),
  withProgress: <T>(_options: unknown, task: () => Thenable<T>) => task(),
  setStatusBarMessage: (text: string) => {
    statusBarMessages.push(text);
    return new Disposable();
  },
};

/**
 * Documents of a content provider's scheme as VS Code keeps them: the text read when opened, read again only when the
 * provider says that URI changed (then onDidChangeTextDocument fires), so a document the provider never says changed
 * stays as it was opened, as in the editor.
 */
export interface FakeTextDocument {
  uri: Uri;
  languageId: string;
  getText(): string;
}
type ContentProvider = { provideTextDocumentContent(uri: Uri): string; onDidChange?: Event<Uri> };
const contentProviders = new Map<string, ContentProvider>();
const openDocuments = new Map<string, { document: FakeTextDocument; text: string }>();
const changedDocument = new EventEmitter<{ document: FakeTextDocument }>();

export const workspace = {
  asRelativePath: (uri: Uri) => uri.path.split('/').pop() ?? uri.path,
  textDocuments: [] as unknown[],
  onDidCloseTextDocument: new EventEmitter<unknown>().event,
  onDidChangeTextDocument: changedDocument.event,
  registerTextDocumentContentProvider(scheme: string, provider: ContentProvider): Disposable {
    contentProviders.set(scheme, provider);
    const subscription = provider.onDidChange?.((uri) => {
      const open = openDocuments.get(uri.toString());
      if (!open) return;
      open.text = provider.provideTextDocumentContent(uri);
      changedDocument.fire({ document: open.document });
    });
    return new Disposable(() => {
      contentProviders.delete(scheme);
      subscription?.dispose();
    });
  },
  async openTextDocument(uri: Uri): Promise<FakeTextDocument> {
    const known = openDocuments.get(uri.toString());
    if (known) return known.document;
    const provider = contentProviders.get(uri.scheme);
    if (!provider) throw new Error(`no content provider for ${uri.scheme}`);
    const open = { text: provider.provideTextDocumentContent(uri), document: { uri, languageId: uri.path.endsWith('.md') ? 'markdown' : 'plaintext', getText: () => open.text } };
    openDocuments.set(uri.toString(), open);
    return open.document;
  },
};

/** Every command executed, in order; a test sets `commandResults` to make one fail (a missing extension). */
export const executedCommands: Array<{ command: string; args: unknown[] }> = [];
export const commandResults = new Map<string, () => unknown>();

/** Commands the code under test registered; executeCommand runs them as VS Code would. */
export const registeredCommands = new Map<string, (...args: unknown[]) => unknown>();

export const commands = {
  registerCommand(command: string, handler: (...args: unknown[]) => unknown): Disposable {
    registeredCommands.set(command, handler);
    return new Disposable(() => registeredCommands.delete(command));
  },
  executeCommand: async (command: string, ...args: unknown[]) => {
    executedCommands.push({ command, args });
    const registered = registeredCommands.get(command);
    return registered ? registered(...args) : commandResults.get(command)?.();
  },
};
